import { Button } from '@/components/ui/Button'
import { formatUtc } from '@/components/ui/formatUtc'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import type { ApiAttestationPack } from '@/lib/web/reserves/apiTypes'

/** What the page read of one block's attestation pack: its figures and the sha256 of each file. */
export type AttestationSummary = {
  block: ApiAttestationPack['block']
  totals: ApiAttestationPack['totals']
  bars: number
  final: boolean
  jsonSha256: string
  csvSha256: string
}

export type AttestationDownloadProps = {
  /** the block asked for (or the default), as typed */
  block: string
  summary: AttestationSummary | null
  /** why there is no summary: a refused block, or the chain unreadable */
  problem: string | null
}

/**
 * The attestation pack of a chosen block (GET /api/reserves/attestation?block=N): a form to pick the block (a plain
 * GET of /reserves?block=N, no script needed), the pack's figures, the JSON and CSV downloads and the sha256 of each,
 * which `sha256sum` of a downloaded file must print.
 */
export function AttestationDownload({ block, summary, problem }: AttestationDownloadProps) {
  const href = (format: 'json' | 'csv') =>
    `/api/reserves/attestation?block=${encodeURIComponent(block)}&format=${format}`
  return (
    <div className="space-y-4 text-sm">
      <form method="get" action="/reserves" className="flex items-end gap-2">
        <div className="grow">
          <Label htmlFor="attestation-block">Block</Label>
          <Input id="attestation-block" name="block" inputMode="numeric" defaultValue={block} />
        </div>
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </form>
      {problem ? <p className="text-stone-600">{problem}</p> : null}
      {summary ? (
        <>
          <p>
            Block {summary.block.number} of{' '}
            <time dateTime={summary.block.timestamp}>{formatUtc(summary.block.timestamp)}</time>: supply{' '}
            {summary.totals.totalSupply} oz, backed by {summary.bars} bars of {summary.totals.backingFineOz} oz fine,{' '}
            {summary.totals.status === 'covered' ? 'covered' : `a shortfall of ${summary.totals.differenceOz} oz`}.
            {summary.final ? null : ' The block is recent: its pack may still change until its mints are settled.'}
          </p>
          <dl className="space-y-2">
            <div>
              <dt>
                <a className="underline" href={href('json')} download>
                  Download the pack (JSON)
                </a>
              </dt>
              <dd className="break-all font-mono text-xs">sha256 {summary.jsonSha256}</dd>
            </div>
            <div>
              <dt>
                <a className="underline" href={href('csv')} download>
                  Download the bars (CSV)
                </a>
              </dt>
              <dd className="break-all font-mono text-xs">sha256 {summary.csvSha256}</dd>
            </div>
          </dl>
        </>
      ) : null}
    </div>
  )
}
