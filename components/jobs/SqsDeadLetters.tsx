'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent } from '@/components/ui/Card'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { SqsRetryBody } from '@/lib/web/queue/schemas'
import { fetchSqsDeadLetters, retrySqsDeadLetters, sqsDeadLettersQueryKey } from './sqsDeadLettersApi'

/**
 * The SQS dead-letter queue beside graphile-worker's dead jobs (QUEUE_TRANSPORT=sqs,
 * decision 021): each message with its order, last error and receive count, as the worker
 * last listed it; retry the selected ones or all, behind a confirmation. A retry gives the
 * message's job a new message (the worker's relay sends it within a second) and the dead
 * letter leaves the list at once, as it does when the job is retried or cancelled on the
 * jobs page; one whose job no longer needs it is refused. Shown only when the SQS
 * transport is on or its DLQ still holds something.
 */
export function SqsDeadLetters({ refreshMs, paused }: { refreshMs: number; paused: boolean }) {
  const queryClient = useQueryClient()
  const query = useQuery({
    queryKey: sqsDeadLettersQueryKey,
    queryFn: fetchSqsDeadLetters,
    refetchInterval: paused ? false : refreshMs,
  })
  const retry = useMutation({
    mutationFn: retrySqsDeadLetters,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  })
  const canChange = useCanChange()
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [confirming, setConfirming] = useState<SqsRetryBody | null>(null)
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)

  const data = query.data
  if (!data || (data.transport !== 'sqs' && data.items.length === 0)) return null
  const open = data.items.filter((d) => !d.retryRequestedAt)
  const shownSelected = open.filter((d) => selected.has(d.messageId)).map((d) => d.messageId)
  const m = data.metrics

  const run = (body: SqsRetryBody) =>
    retry.mutate(body, {
      onSuccess: (r) => {
        const refused = r.skipped.filter((x) => x.reason === 'not_dead').length
        setResult({
          tone: r.retried.length > 0 ? 'success' : 'error',
          text:
            `Retrying ${r.retried.length} ${r.retried.length === 1 ? 'message' : 'messages'}.` +
            (refused > 0 ? ` ${refused} refused: their job was retried, cancelled or finished meanwhile.` : ''),
        })
        setSelected(new Set())
      },
      onError: (e) => setResult({ tone: 'error', text: e.message }),
      onSettled: () => setConfirming(null),
    })

  return (
    <section aria-labelledby="sqs-dead-letters" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="sqs-dead-letters" className="flex items-center gap-3 text-lg font-semibold">
            SQS dead-letter queue
            <span
              className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${data.items.length > 0 ? 'bg-red-600 text-white' : 'bg-emerald-100 text-emerald-800'}`}
            >
              {data.items.length}
            </span>
          </h2>
          <p className="mt-1 text-sm text-stone-600">
            mint_send messages SQS moved after their 5th receive. Queue: {m.depth} waiting, {m.inFlight} in flight,
            oldest {m.oldestAgeSeconds} s, {m.unsent} not yet relayed.
          </p>
        </div>
        <div className={canChange ? 'flex gap-2' : 'hidden'}>
          <Button
            onClick={() => setConfirming({ messageIds: shownSelected })}
            disabled={shownSelected.length === 0 || retry.isPending}
          >
            Retry selected messages ({shownSelected.length})
          </Button>
          <Button
            variant="secondary"
            onClick={() => setConfirming({ all: true })}
            disabled={open.length === 0 || retry.isPending}
          >
            Retry all SQS dead letters ({open.length})
          </Button>
        </div>
      </div>
      {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
      <Card>
        <CardContent>
          <table className="w-full text-sm">
            <caption className="sr-only">SQS dead letters</caption>
            <TableHead>
              <ColumnHeader className="w-8 px-3 py-2">
                <span className="sr-only">Select</span>
              </ColumnHeader>
              <ColumnHeader className="px-3 py-2">Order</ColumnHeader>
              <ColumnHeader className="px-3 py-2">Last error</ColumnHeader>
              <ColumnHeader className="px-3 py-2" right>
                Receives
              </ColumnHeader>
              <ColumnHeader className="px-3 py-2">Message</ColumnHeader>
            </TableHead>
            <tbody>
              {data.items.length === 0 ? <EmptyRow colSpan={5} text="The dead-letter queue is empty." /> : null}
              {data.items.map((d) => (
                <tr key={d.messageId} className="border-t border-stone-100 align-top">
                  <td className="px-3 py-2">
                    <input
                      type="checkbox"
                      aria-label={`Select message ${d.messageId}`}
                      disabled={Boolean(d.retryRequestedAt)}
                      checked={selected.has(d.messageId)}
                      onChange={() =>
                        setSelected((s) => {
                          const next = new Set(s)
                          if (next.has(d.messageId)) next.delete(d.messageId)
                          else next.add(d.messageId)
                          return next
                        })
                      }
                    />
                  </td>
                  <td className="px-3 py-2">
                    {d.orderId ? (
                      <Link
                        className="font-mono text-xs underline"
                        href={d.jobId ? `/admin/jobs/${d.jobId}` : `/admin/jobs?q=${d.orderId}`}
                      >
                        {d.orderId.slice(0, 8)}
                      </Link>
                    ) : (
                      '—'
                    )}
                    {d.orderStatus ? <span className="ml-2 text-xs text-stone-500">{d.orderStatus}</span> : null}
                  </td>
                  <td className="max-w-md break-words px-3 py-2 text-stone-700">{d.lastError ?? '—'}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{d.receiveCount}</td>
                  <td className="px-3 py-2 font-mono text-xs text-stone-500">
                    {d.messageId.slice(0, 8)}
                    {d.retryRequestedAt ? (
                      <span className="ml-2 font-sans text-emerald-700">retry requested</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        title={
          confirming && 'all' in confirming
            ? 'Retry all SQS dead letters?'
            : `Retry ${shownSelected.length} selected ${shownSelected.length === 1 ? 'message' : 'messages'}?`
        }
        confirmLabel="Retry"
        dismissLabel="Not now"
        tone="primary"
        busy={retry.isPending}
        onDismiss={() => setConfirming(null)}
        onConfirm={() => confirming && run(confirming)}
      >
        <p>
          Each message goes back to the queue with fresh receives; failed orders go back to pending or submitted. Fix
          the cause first.
        </p>
      </ConfirmDialog>
    </section>
  )
}
