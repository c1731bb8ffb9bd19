import { formatEth, formatGweiOf } from '@/components/admin/format'
import { Badge } from '@/components/ui/Badge'
import { formatUtc } from '@/components/ui/formatUtc'
import { ScrollX } from '@/components/ui/ScrollX'
import type { JobDetail } from './jobsApi'

/** The transactions signed for a job's order, newest first: nonce, hash, fees, state. */
export function TransactionsTable({ txs }: { txs: JobDetail['transactions'] }) {
  if (txs.length === 0) return <p className="text-sm text-stone-500">No transaction signed yet.</p>
  return (
    <ScrollX label="Each transaction sent">
      <table className="w-full text-sm">
        <caption className="sr-only">Signed transactions of the order</caption>
        <thead>
          <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
            <th scope="col" className="py-2 pr-3 font-medium">
              Hash
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Kind
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Nonce
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Max fee
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Priority fee
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Gas limit
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Max cost
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Broadcast
            </th>
            <th scope="col" className="px-2 py-2 text-right font-medium">
              Mined in
            </th>
          </tr>
        </thead>
        <tbody>
          {txs.map((t) => (
            <tr key={t.hash} className="border-b border-stone-100 last:border-0">
              <td className="py-2 pr-3 font-mono text-xs break-all">{t.hash}</td>
              <td className="px-2 py-2">
                <Badge tone={t.kind === 'replacement' ? 'warning' : 'neutral'}>{t.kind}</Badge>
              </td>
              <td className="tabular px-2 py-2 text-right">{t.nonce}</td>
              <td className="tabular px-2 py-2 text-right whitespace-nowrap">{formatGweiOf(t.maxFeePerGas)}</td>
              <td className="tabular px-2 py-2 text-right whitespace-nowrap">{formatGweiOf(t.maxPriorityFeePerGas)}</td>
              <td className="tabular px-2 py-2 text-right">{t.gasLimit}</td>
              <td className="tabular px-2 py-2 text-right whitespace-nowrap">
                {formatEth(BigInt(t.maxFeePerGas) * BigInt(t.gasLimit))}
              </td>
              <td className="px-2 py-2 whitespace-nowrap">{formatUtc(t.broadcastAt)}</td>
              <td className="tabular px-2 py-2 text-right">
                {t.minedBlock === null ? <span className="text-stone-400">not yet</span> : `block ${t.minedBlock}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  )
}
