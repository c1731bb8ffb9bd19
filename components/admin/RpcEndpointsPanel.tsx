import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { ScrollX } from '@/components/ui/ScrollX'
import type { SystemStatus } from './adminApi'

/**
 * Each chain endpoint (RPC_URLS in rank order) as the web just probed it: healthy or down (with
 * why), its head and latency. The first healthy one serves the reads; sends go to every healthy one.
 */
export function RpcEndpointsPanel({ system }: { system: SystemStatus }) {
  const endpoints = system.rpcEndpoints
  if (endpoints.length === 0) return null
  const down = endpoints.filter((e) => !e.healthy)
  return (
    <div className="space-y-2">
      {endpoints.length > 1 && down.length > 0 ? (
        <Alert
          tone={down.length === endpoints.length ? 'error' : 'warning'}
          title={`${down.length} of ${endpoints.length} RPC endpoints down`}
        >
          {down.length === endpoints.length
            ? 'No endpoint answers: chain reads and sends fail until one is back.'
            : 'Reads and sends go to the healthy endpoints; the desk works on. See docs/deploy.md, "A dead RPC provider".'}
        </Alert>
      ) : null}
      <ScrollX label="RPC endpoints, their health, head and latency">
        <table className="w-full text-sm [&_td]:whitespace-nowrap">
          <caption className="sr-only">RPC endpoints</caption>
          <thead>
            <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
              <th scope="col" className="py-2 pr-3 font-medium">
                Endpoint
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                State
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                Head
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                Latency
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                Last error
              </th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((e) => (
              <tr key={e.label} className="border-t border-stone-100">
                <td className="py-2 pr-3">
                  {e.label}
                  {e.url ? <span className="ml-2 font-mono text-xs text-stone-500">{e.url}</span> : null}
                </td>
                <td className="px-2 py-2">
                  <Badge tone={e.healthy ? 'success' : 'danger'}>{e.healthy ? 'healthy' : 'down'}</Badge>
                </td>
                <td className="px-2 py-2 text-right tabular-nums">{e.head ?? '—'}</td>
                <td className="px-2 py-2 text-right tabular-nums">
                  {e.latencyMs === null ? '—' : `${e.latencyMs} ms`}
                </td>
                <td className="px-2 py-2 text-stone-600">{e.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
    </div>
  )
}
