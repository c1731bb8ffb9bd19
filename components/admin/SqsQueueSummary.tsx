'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { fetchSqsDeadLetters, sqsDeadLettersQueryKey } from '@/components/jobs/sqsDeadLettersApi'

/**
 * The dashboard's SQS figures when mint_send rides on SQS (QUEUE_TRANSPORT=sqs): messages not yet relayed, waiting, in
 * flight, the oldest one's age and the dead-letter queue's depth (red when not 0). Nothing with the postgres transport.
 */
export function SqsQueueSummary({ refreshMs }: { refreshMs: number | false }) {
  const query = useQuery({ queryKey: sqsDeadLettersQueryKey, queryFn: fetchSqsDeadLetters, refetchInterval: refreshMs })
  const data = query.data
  if (data?.transport !== 'sqs') return null
  const m = data.metrics
  const figures: [string, number, boolean][] = [
    ['Not yet relayed', m.unsent, false],
    ['Waiting in SQS', m.depth, false],
    ['In flight', m.inFlight, false],
    ['Oldest message (s)', m.oldestAgeSeconds, false],
    ['SQS dead letters', m.deadLetters, m.deadLetters > 0],
  ]
  return (
    <section aria-labelledby="sqs-queue-heading" className="space-y-3">
      <h2 id="sqs-queue-heading" className="text-base font-semibold">
        SQS transport (mint_send)
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {figures.map(([label, value, alarm]) => (
          <div
            key={label}
            className={`rounded-lg border p-3 ${alarm ? 'border-red-300 bg-red-50' : 'border-stone-200 bg-white'}`}
          >
            <dt className="text-xs text-stone-500">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums">
              {label === 'SQS dead letters' && value > 0 ? <Link href="/admin/dead">{value}</Link> : value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
