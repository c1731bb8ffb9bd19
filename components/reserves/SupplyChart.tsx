import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiReserveHistory, ApiReserves } from '@/lib/web/reserves/apiTypes'
import { chartGeometry } from './chartGeometry'
import { formatOunces } from './format'

const WIDTH = 720
const HEIGHT = 200
/** the windows the chart offers, in days */
export const CHART_WINDOWS = [1, 7, 30, 365] as const

export type SupplyChartProps = {
  history: ApiReserveHistory
  /** the window's end: when the page was read (ISO 8601) */
  asOf: string
  /** the figures read from the chain now, drawn as the last point (none when they come from a check) */
  now?: ApiReserves | null
}

/**
 * The token's supply beside what covers it (backing plus in flight) over the window, one
 * point per span from the reconciliation checks (GET /api/reserves/history) and the last
 * from the chain now, drawn on the server as SVG. A red mark is a check that found a
 * shortfall. The same points follow as a table for screen readers and for copying.
 */
export function SupplyChart({ history, asOf, now }: SupplyChartProps) {
  const live = now?.source === 'chain' ? now : null
  const to = Math.max(Date.parse(asOf), live ? Date.parse(live.asOf) : 0)
  const from = to - history.days * 86_400_000
  const points = live
    ? [
        ...history.points,
        {
          at: live.asOf,
          totalSupply: live.totalSupply,
          backingFineOz: live.backingFineOz,
          inFlightFineOz: live.inFlightFineOz,
          status: live.status,
        },
      ]
    : history.points
  if (points.length === 0)
    return <p className="text-sm text-stone-500">No reconciliation check in the last {windowName(history.days)}.</p>
  const g = chartGeometry({ points, from, to, width: WIDTH, height: HEIGHT })
  const short = points.filter((p) => p.status === 'shortfall').length
  const first = points[0]
  const last = points.at(-1)
  const summary = `Supply from ${formatOunces(first?.totalSupply ?? '0')} to ${formatOunces(last?.totalSupply ?? '0')} over the last ${windowName(history.days)}; ${short === 0 ? 'covered at every check shown' : `a shortfall at ${short} of ${points.length} checks shown`}.`
  return (
    <figure className="space-y-3">
      <svg
        viewBox={`-64 -8 ${WIDTH + 72} ${HEIGHT + 32}`}
        className="h-auto w-full"
        role="img"
        aria-label={summary}
        preserveAspectRatio="xMidYMid meet"
      >
        <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-stone-300" />
        <line x1={0} y1={0} x2={0} y2={HEIGHT} className="stroke-stone-300" />
        <text x={-8} y={8} textAnchor="end" className="fill-stone-600 text-[11px]">
          {g.top} oz
        </text>
        <text x={-8} y={HEIGHT} textAnchor="end" className="fill-stone-600 text-[11px]">
          0
        </text>
        <text x={0} y={HEIGHT + 20} className="fill-stone-600 text-[11px]">
          {formatUtc(new Date(from).toISOString())}
        </text>
        <text x={WIDTH} y={HEIGHT + 20} textAnchor="end" className="fill-stone-600 text-[11px]">
          {formatUtc(asOf)}
        </text>
        {g.shortfalls.map((x) => (
          <line key={`short-${x}`} x1={x} y1={0} x2={x} y2={HEIGHT} className="stroke-red-300" strokeWidth={2} />
        ))}
        {g.checks.map((x) => (
          <line key={`check-${x}`} x1={x} y1={HEIGHT} x2={x} y2={HEIGHT + 5} className="stroke-stone-400" />
        ))}
        <path d={g.cover} fill="none" className="stroke-amber-600" strokeWidth={3} />
        <path d={g.supply} fill="none" className="stroke-stone-900" strokeWidth={1.5} strokeDasharray="6 4" />
      </svg>
      <figcaption className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-stone-600">
        <span>
          <span aria-hidden className="mr-1 inline-block h-0.5 w-6 bg-amber-600 align-middle" />
          Backing and in flight
        </span>
        <span>
          <span aria-hidden className="mr-1 inline-block w-6 border-t-2 border-dashed border-stone-900 align-middle" />
          Token supply (on chain)
        </span>
        <span>
          <span aria-hidden className="mr-1 inline-block h-3 w-0.5 bg-red-300 align-middle" />A check that found a
          shortfall
        </span>
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer text-stone-700">
          {points.length === 1 ? 'The point as a table' : `The ${points.length} points as a table`}
        </summary>
        <table className="mt-2 w-full text-sm">
          <caption className="sr-only">Supply and backing at each check shown</caption>
          <thead>
            <tr className="border-b border-stone-200 text-left text-xs uppercase tracking-wide text-stone-500">
              <th scope="col" className="py-1 pr-3 font-medium">
                Check
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Supply
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Backing
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                In flight
              </th>
              <th scope="col" className="py-1 font-medium">
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={p.at} className="border-b border-stone-100 last:border-0">
                <td className="py-1 pr-3">
                  <time dateTime={p.at}>{formatUtc(p.at)}</time>
                  {live && i === points.length - 1 ? ' (now, from the chain)' : null}
                </td>
                <td className="tabular py-1 pr-3 text-right">{formatOunces(p.totalSupply)}</td>
                <td className="tabular py-1 pr-3 text-right">{formatOunces(p.backingFineOz)}</td>
                <td className="tabular py-1 pr-3 text-right">{formatOunces(p.inFlightFineOz)}</td>
                <td className="py-1">{p.status === 'covered' ? 'Covered' : 'Shortfall'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}

/** 1 -> 'day', 7 -> '7 days' */
export function windowName(days: number): string {
  return days === 1 ? 'day' : `${days} days`
}
