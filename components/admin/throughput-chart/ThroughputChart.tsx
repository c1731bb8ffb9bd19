import { useId } from 'react'
import { buildChart, type ThroughputPoint } from './buildChart'

/**
 * Throughput over the last hour as inline SVG (no chart library): per minute, attempts
 * that succeeded (green) with the failed ones stacked on top (red), and the jobs
 * enqueued as a line. The totals are in the caption for screen readers.
 */
export function ThroughputChart({
  points,
  windowLabel = 'last hour',
}: {
  points: ThroughputPoint[]
  windowLabel?: string
}) {
  const chart = buildChart(points)
  const titleId = useId()
  const descId = useId()
  const { layout } = chart
  const summary = `${chart.totals.succeeded} succeeded, ${chart.totals.failed} failed, ${chart.totals.enqueued} enqueued in the ${windowLabel}`
  return (
    <figure className="m-0">
      <svg
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
      >
        <title id={titleId}>Throughput, {windowLabel}</title>
        <desc id={descId}>{summary}</desc>
        {chart.yTicks.map((t) => (
          <g key={t.value}>
            <line
              x1={layout.left}
              x2={layout.width - layout.right}
              y1={t.y}
              y2={t.y}
              className="stroke-stone-200"
              strokeWidth={1}
            />
            <text x={layout.left - 6} y={t.y + 4} textAnchor="end" className="fill-stone-500 text-[10px]">
              {Number.isInteger(t.value) ? t.value : t.value.toFixed(1)}
            </text>
          </g>
        ))}
        {chart.bars.map((b) => (
          <g key={b.at.toISOString()}>
            <title>{`${b.at.toISOString().slice(11, 16)} UTC: ${b.succeeded.value} succeeded, ${b.failed.value} failed, ${b.enqueued} enqueued`}</title>
            <rect x={b.x} y={b.succeeded.y} width={b.width} height={b.succeeded.height} className="fill-emerald-500" />
            <rect x={b.x} y={b.failed.y} width={b.width} height={b.failed.height} className="fill-red-500" />
            {/* an invisible full-height target so the tooltip shows on empty minutes too */}
            <rect x={b.x} y={layout.top} width={b.width} height={chart.baseline - layout.top} fill="transparent" />
          </g>
        ))}
        {chart.enqueuedPath ? (
          <path
            d={chart.enqueuedPath}
            fill="none"
            className="stroke-sky-600"
            strokeWidth={1.5}
            strokeLinejoin="round"
          />
        ) : null}
        <line
          x1={layout.left}
          x2={layout.width - layout.right}
          y1={chart.baseline}
          y2={chart.baseline}
          className="stroke-stone-400"
        />
        {chart.xTicks.map((t) => (
          <text key={t.label} x={t.x} y={layout.height - 6} textAnchor="middle" className="fill-stone-500 text-[10px]">
            {t.label}
          </text>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center gap-4 text-xs text-stone-600">
        <Legend className="h-2.5 w-2.5 bg-emerald-500" label={`Succeeded (${chart.totals.succeeded})`} />
        <Legend className="h-2.5 w-2.5 bg-red-500" label={`Failed (${chart.totals.failed})`} />
        <Legend className="h-0.5 w-3 bg-sky-600" label={`Enqueued (${chart.totals.enqueued})`} />
        <span className="ml-auto">per minute, UTC</span>
      </figcaption>
    </figure>
  )
}

function Legend({ className, label }: { className: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block rounded-sm ${className}`} />
      {label}
    </span>
  )
}
