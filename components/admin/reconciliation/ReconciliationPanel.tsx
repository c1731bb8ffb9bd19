'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { ScrollX } from '@/components/ui/ScrollX'
import type { ApiUnreconciledEvent } from '@/lib/web/reconciliation/schemas'
import { AdminAction } from '../AdminAccess'
import { shortHex } from '../format'
import { fetchReconciliation, reconciliationQueryKey, resolveEvent } from './reconciliationApi'

const STATE_TEXT = {
  in_sync: 'in sync',
  resync_needed: 'chain ahead: resync',
  in_flight: 'in flight',
  unknown: 'chain unknown',
} as const

/**
 * The chain reconciliation (docs/decisions/063-nonce-resync-after-restore.md): each signer's nonce in Postgres
 * against the chain's, and the chain events no row of the desk accounts for, each with a Resolve action (a note)
 * for admins; auditors read it.
 */
export function ReconciliationPanel() {
  const data = useQuery({ queryKey: reconciliationQueryKey, queryFn: fetchReconciliation, refetchInterval: 10_000 })
  if (data.error) return <Alert tone="error">{data.error.message}</Alert>
  if (!data.data)
    return (
      <p className="text-sm text-stone-500" role="status">
        Loading the reconciliation…
      </p>
    )
  const r = data.data
  return (
    <div className="space-y-4">
      {!r.chain.available ? (
        <Alert tone="warning" title="Chain unavailable">
          {r.chain.error ?? 'The RPC did not answer.'}
        </Alert>
      ) : null}
      <ScrollX label="Signers: nonce in Postgres against the chain">
        <table className="w-full text-sm [&_td]:whitespace-nowrap">
          <caption className="sr-only">Signer nonces, database and chain</caption>
          <thead>
            <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
              <th scope="col" className="py-2 pr-3 font-medium">
                Signer
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                Database nonce
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                Chain nonce
              </th>
              <th scope="col" className="px-2 py-2 font-medium">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {r.signers.map((s) => (
              <tr key={s.address} className="border-b border-stone-100">
                <td className="py-2 pr-3 font-mono" title={s.address}>
                  {shortHex(s.address)}
                </td>
                <td className="px-2 py-2 text-right tabular-nums">{s.dbNonce}</td>
                <td className="px-2 py-2 text-right tabular-nums">{s.chainNonce ?? '—'}</td>
                <td className="px-2 py-2">
                  <Badge tone={s.state === 'resync_needed' ? 'warning' : 'neutral'}>{STATE_TEXT[s.state]}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      {r.unreconciled.length === 0 ? (
        <p className="text-sm text-stone-600">
          Every chain event since block 0 to {r.cursorBlock ?? '—'} matches a record of the desk.
        </p>
      ) : (
        <Alert
          tone="error"
          title={`${r.unreconciled.length} chain ${r.unreconciled.length === 1 ? 'event' : 'events'} no record accounts for`}
        >
          A mint among them counts in the supply with no bars: /reserves shows the shortfall until bars back it or the
          tokens are burned. Resolving records what was found; it changes no figure.
        </Alert>
      )}
      {r.unreconciled.length > 0 ? (
        <ul className="space-y-3">
          {r.unreconciled.map((e) => (
            <UnreconciledRow key={e.id} event={e} />
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function UnreconciledRow({ event }: { event: ApiUnreconciledEvent }) {
  const client = useQueryClient()
  const [note, setNote] = useState('')
  const resolve = useMutation({
    mutationFn: () => resolveEvent({ id: event.id, note }),
    onSuccess: () => client.invalidateQueries({ queryKey: reconciliationQueryKey }),
  })
  return (
    <li className="rounded border border-stone-200 p-3 text-sm">
      <p className="font-medium break-words">
        {event.event}
        {event.amount ? ` of ${event.amount} oz` : ''} in block {event.blockNumber}
      </p>
      <p className="font-mono text-xs break-all text-stone-600">
        {event.txHash} (log {event.logIndex})
      </p>
      <p className="text-stone-700">{event.reason}</p>
      <AdminAction>
        <form
          className="mt-2 flex flex-wrap items-end gap-2"
          onSubmit={(ev) => {
            ev.preventDefault()
            resolve.mutate()
          }}
        >
          <label className="flex min-w-64 flex-1 flex-col text-xs text-stone-600">
            What was found and done
            <input
              className="rounded border border-stone-300 px-2 py-1 text-sm"
              value={note}
              maxLength={500}
              onChange={(ev) => setNote(ev.target.value)}
            />
          </label>
          <button
            type="submit"
            className="rounded bg-stone-900 px-3 py-1.5 text-sm text-white disabled:opacity-50"
            disabled={note.trim().length === 0 || resolve.isPending}
          >
            Resolve
          </button>
        </form>
        {resolve.error ? <Alert tone="error">{resolve.error.message}</Alert> : null}
      </AdminAction>
    </li>
  )
}
