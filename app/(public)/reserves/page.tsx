import type { Metadata } from 'next'
import { BarListDates } from '@/components/reserves/BarListDates'
import { ReserveLookup } from '@/components/reserves/ReserveLookup'
import { ReserveSummary } from '@/components/reserves/ReserveSummary'
import { parseLookupInput } from '@/components/reserves/reservesApi'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { NotReadyError } from '@/lib/web/errors/ops'
import type { ApiReserves } from '@/lib/web/reserves/apiTypes'
import { getReservesReader } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Proof of reserve' }
export const dynamic = 'force-dynamic'

type SearchParams = Record<string, string | string[] | undefined>

/**
 * /reserves, public (no sign-in: lib/web/auth/decidePageAccess.ts): the token's on-chain
 * supply beside the bars backing it, the bar lists' dates, the latest reconciliation
 * check, and the lookup of the bars behind a mint. The same figures as GET /api/reserves,
 * from the same per-process cache (one chain read per interval for page and API together).
 */
export default async function ReservesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams
  const reserves = await readReserves()
  const initial = parseLookupInput(first(params.tx) ?? first(params.address) ?? first(params.serial) ?? '')
  return (
    <div className="space-y-6">
      <div>
        <h1>Proof of reserve</h1>
        <p className="mt-1 max-w-3xl text-sm text-stone-600">
          Every token is backed by one fine troy ounce of gold in a listed bar. The supply is read from the chain; the
          bars come from the custodian&apos;s bar lists.
        </p>
      </div>

      <Card aria-labelledby="figures-heading">
        <CardHeader>
          <CardTitle id="figures-heading">Supply and reserves</CardTitle>
          {reserves?.tokenAddress ? (
            <CardDescription>
              Token <span className="font-mono">{reserves.tokenAddress}</span>
              {reserves.chainId ? ` on chain ${reserves.chainId}` : null}
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent>
          {reserves ? (
            <ReserveSummary reserves={reserves} />
          ) : (
            <Alert tone="warning" title="The figures are not available right now">
              The chain cannot be read and no reconciliation check has been recorded yet. Try again in a minute.
            </Alert>
          )}
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card aria-labelledby="lists-heading">
          <CardHeader>
            <CardTitle id="lists-heading">Bar lists</CardTitle>
            <CardDescription>The custodian&apos;s latest list of each vault.</CardDescription>
          </CardHeader>
          <CardContent>{reserves ? <BarListDates barLists={reserves.barLists} /> : null}</CardContent>
        </Card>
        <Card aria-labelledby="check-heading">
          <CardHeader>
            <CardTitle id="check-heading">Reconciliation</CardTitle>
            <CardDescription>
              A check compares the supply with the reserves every minute and records the result.
            </CardDescription>
          </CardHeader>
          <CardContent className="text-sm">
            {reserves?.lastCheck ? (
              <p>
                Latest check: <time dateTime={reserves.lastCheck.at}>{formatUtc(reserves.lastCheck.at)}</time> at block{' '}
                {reserves.lastCheck.blockNumber},{' '}
                {reserves.lastCheck.status === 'covered'
                  ? 'covered'
                  : `shortfall of ${reserves.lastCheck.shortfallOz} oz`}
                .
              </p>
            ) : (
              <p className="text-stone-500">No check has been recorded yet.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <Card aria-labelledby="lookup-heading">
        <CardHeader>
          <CardTitle id="lookup-heading">Which bars back my tokens?</CardTitle>
          <CardDescription>
            The confirmed mints to an address, or in a transaction, and the bars behind each.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ReserveLookup initial={initial} />
        </CardContent>
      </Card>
    </div>
  )
}

/** The figures, or null when neither the chain nor a recorded check can give them (503 on the API). */
async function readReserves(): Promise<ApiReserves | null> {
  try {
    return await getReservesReader().reserves()
  } catch (error) {
    if (error instanceof NotReadyError) return null
    throw error
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
