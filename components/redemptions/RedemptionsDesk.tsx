'use client'

import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import type { ApiDeposit } from '@/lib/web/redemptions/apiTypes'
import { DepositsTable } from './DepositsTable'
import { RedemptionRequestForm } from './RedemptionRequestForm'
import { depositsQueryKey, fetchDeposits } from './redemptionsApi'
import { sortDeposits } from './sortDeposits'

/** How often the deposits are read again: the worker records a new one within seconds of its confirmations. */
const DEPOSITS_POLL_MS = 5_000

export type RedemptionsDeskProps = {
  /** the deposits as the server read them for the first render */
  initialDeposits: ApiDeposit[]
  /** staff and admins request redemptions; approvers and auditors read */
  canRequest: boolean
}

/**
 * The deposits (unmatched first, read again every few seconds) and, for a viewer who may request, the redemption
 * form: "Match" on a deposit chooses it there.
 */
export function RedemptionsDesk({ initialDeposits, canRequest }: RedemptionsDeskProps) {
  const [selected, setSelected] = useState('')
  const query = useQuery({
    queryKey: depositsQueryKey,
    queryFn: ({ signal }) => fetchDeposits({ signal }),
    initialData: { items: initialDeposits },
    refetchInterval: DEPOSITS_POLL_MS,
  })
  const deposits = sortDeposits(query.data.items)
  const unmatched = deposits.filter((d) => d.status === 'unmatched')

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <CardTitle>Deposits</CardTitle>
            <CardDescription>
              Transfers to the redemption address, once they have their confirmations; unmatched first.
            </CardDescription>
          </div>
          <p className="text-xs text-stone-500">
            Read again every {DEPOSITS_POLL_MS / 1000} s{query.isFetching ? '…' : ''}
          </p>
        </CardHeader>
        {query.isError ? (
          <CardContent>
            <Alert tone="error" title="The deposits could not be loaded.">
              {query.error.message}
            </Alert>
          </CardContent>
        ) : null}
        <CardContent className="p-0">
          <DepositsTable deposits={deposits} canRequest={canRequest} selected={selected} onSelect={setSelected} />
        </CardContent>
      </Card>
      {canRequest ? <RedemptionRequestForm deposits={unmatched} selected={selected} onSelect={setSelected} /> : null}
    </div>
  )
}
