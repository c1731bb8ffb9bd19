import { IMPORT_PHASES, type ImportProgress } from '@/lib/web/vault/importProgress'

const PHASE_NAMES: Record<ImportProgress['phase'], string> = {
  receive: 'Reading the file',
  check: "Checking the list and the custodian's signature",
  apply: 'Applying the bars',
}

/**
 * A bar-list import as it runs: its step of three, the step's name and how far it is, on a
 * bar that fills across the three steps (a step without a measure, the check, shows as
 * half done until it ends).
 */
export function ImportProgressBar({ progress }: { progress: ImportProgress }) {
  const step = IMPORT_PHASES.indexOf(progress.phase)
  const share = progress.total ? Math.min(1, progress.done / progress.total) : 0.5
  const percent = Math.round(((step + share) / IMPORT_PHASES.length) * 100)
  const measure =
    progress.total === null
      ? ''
      : progress.phase === 'receive'
        ? `: ${formatMiB(progress.done)} of ${formatMiB(progress.total)}`
        : `: ${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} bars`
  const label = `Step ${step + 1} of ${IMPORT_PHASES.length}, ${PHASE_NAMES[progress.phase]}${measure}`
  return (
    <div className="space-y-1" data-phase={progress.phase}>
      <p id="import-progress-label" className="text-sm text-stone-700" aria-live="polite">
        {label}
      </p>
      <progress
        aria-labelledby="import-progress-label"
        value={percent}
        max={100}
        className="h-2 w-full overflow-hidden rounded bg-stone-100 [&::-webkit-progress-bar]:bg-stone-100 [&::-webkit-progress-value]:bg-amber-600"
      />
    </div>
  )
}

/** bytes -> '3.2 MiB' (a size shown, not an amount) */
function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}
