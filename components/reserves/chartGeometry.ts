import { parseDecimal } from '@/lib/money/parseDecimal'
import { TOKEN_DECIMALS } from '@/lib/money/units'
import type { ApiReserveHistory } from '@/lib/web/reserves/apiTypes'

export type ChartGeometryParameters = {
  points: ApiReserveHistory['points']
  /** the window's start and end, ms since the epoch: the x axis */
  from: number
  to: number
  width: number
  height: number
}

export type ChartGeometry = {
  /** SVG path of the on-chain supply, as steps: a value holds from its check to the next */
  supply: string
  /** SVG path of what covers it: backing plus in flight */
  cover: string
  /** x of each check, where the chart marks it */
  checks: number[]
  /** x of each point whose check found a shortfall */
  shortfalls: number[]
  /** the y axis's top, in oz (a decimal string): a tenth above the largest value */
  top: string
}

/**
 * The lines of the supply chart on /reserves. Weights stay exact (bigint base units) until
 * they become pixels: y is the value's share of the axis, in thousandths of the height.
 */
export function chartGeometry(p: ChartGeometryParameters): ChartGeometry {
  const wei = (oz: string) => parseDecimal(oz, { decimals: TOKEN_DECIMALS })
  const rows = p.points.map((point) => ({
    x: ((Date.parse(point.at) - p.from) / Math.max(1, p.to - p.from)) * p.width,
    supply: wei(point.totalSupply),
    cover: wei(point.backingFineOz) + wei(point.inFlightFineOz),
    shortfall: point.status === 'shortfall',
  }))
  const largest = rows.reduce((m, r) => larger(larger(m, r.supply), r.cover), 0n)
  const oneOz = 10n ** BigInt(TOKEN_DECIMALS)
  const top = largest === 0n ? oneOz : largest + largest / 10n
  const y = (v: bigint) => p.height - (Number((v * 1000n) / top) * p.height) / 1000
  // a step line: each check's value holds until the next check, the last one until the window's end
  const path = (pick: (r: (typeof rows)[number]) => bigint) =>
    rows.length === 0
      ? ''
      : `${rows.map((r, i) => `${i === 0 ? 'M' : 'H'}${round(r.x)}${i === 0 ? ' ' : ' V'}${round(y(pick(r)))}`).join(' ')} H${p.width}`
  return {
    supply: path((r) => r.supply),
    cover: path((r) => r.cover),
    checks: rows.map((r) => round(r.x)),
    shortfalls: rows.filter((r) => r.shortfall).map((r) => round(r.x)),
    top: formatWholeOz(top, oneOz),
  }
}

function larger(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}

function round(n: number): number {
  return Math.round(n * 10) / 10
}

/** base units -> whole ounces, rounded up: the axis label */
function formatWholeOz(weiValue: bigint, oneOz: bigint): string {
  return ((weiValue + oneOz - 1n) / oneOz).toString()
}
