'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { formatOunces } from '@/components/reserves/format'
import { ReserveStatusBadge } from '@/components/reserves/ReserveStatusBadge'
import { fetchReserves, reservesQueryKey } from '@/components/reserves/reservesApi'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'

/**
 * The reserves as /reserves reads them now (GET /api/reserves: the chain's supply and the bars, behind the web's
 * few-second cache), beside the latest reserve check above them; refreshed with the dashboard.
 */
export function ReservesNow({ refreshMs }: { refreshMs: number | false }) {
  const query = useQuery({ queryKey: reservesQueryKey, queryFn: fetchReserves, refetchInterval: refreshMs })
  const r = query.data
  return (
    <Card aria-labelledby="reserves-now-heading">
      <CardHeader>
        <CardTitle id="reserves-now-heading">Reserves now</CardTitle>
        <CardDescription>
          {r ? (
            <>
              Read {r.source === 'chain' ? 'from the chain' : 'from the latest check (the chain could not be read)'} at{' '}
              <time dateTime={r.asOf}>{formatUtc(r.asOf)}</time>, block {r.blockNumber}.{' '}
            </>
          ) : query.error ? (
            `The reserves could not be read: ${query.error.message}. `
          ) : (
            'Reading the reserves… '
          )}
          <Link href="/reserves" className="underline underline-offset-4">
            Details
          </Link>
        </CardDescription>
      </CardHeader>
      {r ? (
        <CardContent>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <div>
              <dt className="text-xs text-stone-500">Status</dt>
              <dd className="mt-1">
                <ReserveStatusBadge status={r.status} />
              </dd>
            </div>
            {[
              ['Token supply', r.totalSupply],
              ['Backing', r.backingFineOz],
              ['In flight', r.inFlightFineOz],
            ].map(([label, value]) => (
              <div key={label}>
                <dt className="text-xs text-stone-500">{label}</dt>
                <dd className="tabular mt-1 text-lg text-stone-900">{formatOunces(value ?? '0')}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      ) : null}
    </Card>
  )
}
