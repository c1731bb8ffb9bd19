export type ThroughputPoint = { at: Date; enqueued: number; succeeded: number; failed: number }

export type ChartLayout = { width: number; height: number; left: number; right: number; top: number; bottom: number }

export const DEFAULT_LAYOUT: ChartLayout = { width: 720, height: 200, left: 40, right: 8, top: 10, bottom: 24 }

export type ChartBar = {
  at: Date
  x: number
  width: number
  /** succeeded at the bottom, failed stacked on top */
  succeeded: { y: number; height: number; value: number }
  failed: { y: number; height: number; value: number }
  enqueued: number
}

export type Chart = {
  layout: ChartLayout
  bars: ChartBar[]
  /** SVG path of the enqueued line, '' without points */
  enqueuedPath: string
  yMax: number
  yTicks: { y: number; value: number }[]
  xTicks: { x: number; label: string }[]
  totals: { enqueued: number; succeeded: number; failed: number }
  baseline: number
}

/** The smallest 1, 2 or 5 x 10^k at or above `value` (at least 1): a round top for the axis. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power
  return 10 * power
}

/**
 * Geometry of the throughput chart (pure, so it is tested without a browser): one
 * stacked bar per bucket (succeeded, failed on top), the enqueued count as a line,
 * a round y axis and a time label every `labelEveryMinutes` (UTC, HH:MM).
 */
export function buildChart(
  points: ThroughputPoint[],
  layout: ChartLayout = DEFAULT_LAYOUT,
  labelEveryMinutes = 15,
): Chart {
  const plotW = layout.width - layout.left - layout.right
  const plotH = layout.height - layout.top - layout.bottom
  const baseline = layout.top + plotH
  const peak = Math.max(0, ...points.map((p) => Math.max(p.succeeded + p.failed, p.enqueued)))
  const yMax = niceCeiling(peak)
  const scale = (v: number) => (v / yMax) * plotH
  const slot = points.length > 0 ? plotW / points.length : plotW
  const barW = Math.max(1, slot * 0.7)

  const bars: ChartBar[] = points.map((p, i) => {
    const x = layout.left + i * slot + (slot - barW) / 2
    const sH = scale(p.succeeded)
    const fH = scale(p.failed)
    return {
      at: p.at,
      x,
      width: barW,
      succeeded: { y: baseline - sH, height: sH, value: p.succeeded },
      failed: { y: baseline - sH - fH, height: fH, value: p.failed },
      enqueued: p.enqueued,
    }
  })

  const enqueuedPath = points
    .map(
      (p, i) =>
        `${i === 0 ? 'M' : 'L'}${round(layout.left + i * slot + slot / 2)},${round(baseline - scale(p.enqueued))}`,
    )
    .join(' ')

  const yTicks = [0, yMax / 2, yMax].map((value) => ({ value, y: baseline - scale(value) }))
  const xTicks = points.flatMap((p, i) =>
    p.at.getUTCMinutes() % labelEveryMinutes === 0 && p.at.getUTCSeconds() === 0
      ? [{ x: layout.left + i * slot + slot / 2, label: p.at.toISOString().slice(11, 16) }]
      : [],
  )
  const totals = points.reduce(
    (t, p) => ({
      enqueued: t.enqueued + p.enqueued,
      succeeded: t.succeeded + p.succeeded,
      failed: t.failed + p.failed,
    }),
    { enqueued: 0, succeeded: 0, failed: 0 },
  )
  return { layout, bars, enqueuedPath, yMax, yTicks, xTicks, totals, baseline }
}

function round(n: number): number {
  return Math.round(n * 10) / 10
}
