import type { Metadata } from 'next'
import Link from 'next/link'
import { AttestationDownload, type AttestationSummary } from '@/components/reserves/AttestationDownload'
import { BarListDates } from '@/components/reserves/BarListDates'
import { ReserveLookup } from '@/components/reserves/ReserveLookup'
import { ReserveSummary } from '@/components/reserves/ReserveSummary'
import { parseLookupInput } from '@/components/reserves/reservesApi'
import { CHART_WINDOWS, SupplyChart, windowName } from '@/components/reserves/SupplyChart'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { formatUtc } from '@/components/ui/formatUtc'
import { PageHeading } from '@/components/ui/PageHeading'
import { NotReadyError } from '@/lib/web/errors/ops'
import { ValidationError } from '@/lib/web/errors/request'
import { logServerError } from '@/lib/web/errors/toErrorResponse'
import type { ApiReserveHistory, ApiReserves } from '@/lib/web/reserves/apiTypes'
import { attestationQuerySchema, reserveHistoryQuerySchema } from '@/lib/web/reserves/schemas'
import { getReservesReader } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Proof of reserve' }
export const dynamic = 'force-dynamic'

type SearchParams = Record<string, string | string[] | undefined>

/**
 * /reserves, public (no sign-in: lib/web/auth/decidePageAccess.ts): the token's on-chain
 * supply beside the bars backing it, the bar lists' dates, the latest reconciliation
 * check, the lookup of the bars behind a mint, and the attestation pack of a chosen block (`?block=N`; the newest
 * block with its confirmations by default) with the sha256 of its files. The same figures as GET /api/reserves,
 * from the same per-process cache (one chain read per interval for page and API together).
 */
export default async function ReservesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams
  const days = reserveHistoryQuerySchema.safeParse({ days: first(params.days) }).data?.days ?? 30
  const asOf = new Date().toISOString()
  const [reserves, history, attestation] = await Promise.all([
    readReserves(),
    readHistory(days),
    readAttestation(first(params.block)),
  ])
  const initial = parseLookupInput(first(params.tx) ?? first(params.address) ?? first(params.serial) ?? '')
  return (
    <div className="space-y-6">
      <PageHeading title="Proof of reserve">
        Every token is backed by one fine troy ounce of gold in a listed bar. The supply is read from the chain; the
        bars come from the custodian&apos;s bar lists.
      </PageHeading>

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

      <Card aria-labelledby="history-heading">
        <CardHeader>
          <CardTitle id="history-heading">Supply and backing over time</CardTitle>
          <CardDescription>
            The reconciliation checks of the last {windowName(days)}: the supply should never rise above what backs it.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <nav aria-label="Chart window" className="flex gap-2 text-sm">
            {CHART_WINDOWS.map((d) => (
              <Link
                key={d}
                href={`/reserves?days=${d}`}
                aria-current={d === days ? 'page' : undefined}
                className={`rounded-md border px-2 py-1 ${d === days ? 'border-stone-800 bg-stone-800 text-white' : 'border-stone-300 text-stone-700 hover:bg-stone-100'}`}
              >
                {d === 1 ? '1 day' : `${d} days`}
              </Link>
            ))}
          </nav>
          {history ? (
            <SupplyChart history={history} asOf={asOf} now={reserves} />
          ) : (
            <p className="text-sm text-stone-500">The checks cannot be read right now.</p>
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

      <Card aria-labelledby="attestation-heading">
        <CardHeader>
          <CardTitle id="attestation-heading">Attestation pack</CardTitle>
          <CardDescription>
            The supply at one block beside the bar lists in force then and every bar that backed it, for auditors: the
            same block always gives the same file.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AttestationDownload {...attestation} />
        </CardContent>
      </Card>

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

/** The checks of the window, or null (logged) when the database cannot be read now: the page shows the rest. */
async function readHistory(days: number): Promise<ApiReserveHistory | null> {
  try {
    return await getReservesReader().history({ days })
  } catch (error) {
    logServerError({ msg: 'reserve history unreadable', status: 500, code: 'internal_error', err: error })
    return null
  }
}

/**
 * The attestation pack of the block asked for (or of the newest block with its confirmations): its figures and
 * sha256s, from the same per-process cache as GET /api/reserves/attestation; a refused block or an unreadable chain
 * is said in words.
 */
async function readAttestation(
  asked: string | undefined,
): Promise<{ block: string; summary: AttestationSummary | null; problem: string | null }> {
  const reader = getReservesReader()
  let block = asked?.trim() ?? ''
  try {
    if (block === '') block = (await reader.confirmedBlock()).toString()
    const query = attestationQuerySchema.safeParse({ block })
    if (!query.success) return { block, summary: null, problem: 'The block must be a whole number, such as 1234.' }
    const answer = await reader.attestation(query.data.block)
    return {
      block,
      problem: null,
      summary: {
        block: answer.pack.block,
        totals: answer.pack.totals,
        bars: answer.pack.bars.length,
        final: answer.final,
        jsonSha256: answer.json.sha256,
        csvSha256: answer.csv.sha256,
      },
    }
  } catch (error) {
    if (error instanceof ValidationError)
      return { block, summary: null, problem: `Block ${block} ${error.issues?.[0]?.message ?? 'cannot be attested'}.` }
    if (error instanceof NotReadyError)
      return { block, summary: null, problem: 'The chain cannot be read right now: try again in a minute.' }
    logServerError({ msg: 'attestation pack unreadable', status: 500, code: 'internal_error', err: error })
    return { block, summary: null, problem: 'The attestation pack cannot be read right now.' }
  }
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
