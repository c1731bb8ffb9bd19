import { shortHex } from '@/components/mint/format'
import { Badge } from '@/components/ui/Badge'
import { formatUtc } from '@/components/ui/formatUtc'
import type { ApiReserveLookup } from '@/lib/web/reserves/apiTypes'
import { formatOunces } from './format'

/**
 * Each confirmed mint of a lookup with the bars that back it (serial, refiner, vault, fine weight), and whether each
 * is on the latest list, missing from it, or redeemed (with the burn that took its tokens).
 */
export function BackedMints({ lookup }: { lookup: ApiReserveLookup }) {
  const bars = lookup.bars ? <SerialBars bars={lookup.bars} /> : null
  if (lookup.mints.length === 0) {
    return (
      <div className="space-y-4">
        {bars}
        <p className="text-sm text-stone-600">
          No confirmed mint{' '}
          {'tx' in lookup.query
            ? 'in this transaction'
            : 'serial' in lookup.query
              ? 'backed by this serial'
              : 'to this address'}
          .
        </p>
      </div>
    )
  }
  return (
    <div className="space-y-4">
      {bars}
      {lookup.truncated ? (
        <p className="text-sm text-stone-600">Showing the newest {lookup.mints.length} mints.</p>
      ) : null}
      {lookup.mints.map((m) => (
        <section
          key={m.orderId}
          aria-label={`Mint of ${formatOunces(m.amount)} in ${m.txHash}`}
          className="rounded-lg border border-stone-200 bg-white"
        >
          <header className="flex flex-wrap items-baseline gap-x-4 gap-y-1 border-b border-stone-100 px-4 py-3 text-sm">
            <span className="tabular font-semibold">{formatOunces(m.amount)}</span>
            <span>
              to{' '}
              <span className="font-mono" title={m.to}>
                {shortHex(m.to)}
              </span>
            </span>
            <span>
              tx{' '}
              <span className="font-mono" title={m.txHash}>
                {shortHex(m.txHash, 10, 8)}
              </span>
            </span>
            {m.blockNumber ? <span className="text-stone-500">block {m.blockNumber}</span> : null}
            {m.confirmedAt ? (
              <span className="text-stone-500">
                confirmed <time dateTime={m.confirmedAt}>{formatUtc(m.confirmedAt)}</time>
              </span>
            ) : null}
          </header>
          <table className="w-full text-sm">
            <caption className="sr-only">Bars backing this mint</caption>
            <thead>
              <tr className="border-b border-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
                <th scope="col" className="px-4 py-2 font-medium">
                  Serial
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Refiner
                </th>
                <th scope="col" className="px-2 py-2 font-medium">
                  Vault
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  Fine weight
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {m.bars.map((b) => (
                <tr key={`${b.vault}:${b.refiner}:${b.serial}`} className="border-b border-stone-50 last:border-0">
                  <th scope="row" className="px-4 py-2 text-left font-mono font-normal">
                    {b.serial}
                  </th>
                  <td className="px-2 py-2">{b.refiner}</td>
                  <td className="px-2 py-2 font-mono">{b.vault}</td>
                  <td className="tabular px-2 py-2 text-right">{formatOunces(b.fineOz)}</td>
                  <td className="px-4 py-2">
                    {b.redeemed ? (
                      <>
                        <Badge tone="neutral" data-status="redeemed">
                          redeemed
                        </Badge>{' '}
                        <span className="font-mono text-xs" title={b.redeemed.txHash}>
                          burn {shortHex(b.redeemed.txHash, 10, 8)}
                        </span>
                      </>
                    ) : b.status === 'missing' ? (
                      <Badge tone="danger">missing</Badge>
                    ) : (
                      <Badge tone="success">listed</Badge>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  )
}

/** What a bar's status means to a holder reading the lookup. */
const BAR_MEANING: Record<string, string> = {
  available: 'free: it backs no token',
  reserved: 'held by a mint on its way',
  backing: 'backs the confirmed mint below',
  missing: 'held by a mint, but missing from the latest bar list',
  withdrawn: 'left the vault; backs no token',
  redeemed: 'redeemed: its tokens were burned',
}

/** The bars a serial names, each with what it does now. */
function SerialBars({ bars }: { bars: NonNullable<ApiReserveLookup['bars']> }) {
  if (bars.length === 0) return <p className="text-sm text-stone-600">No bar with this serial is on the bar lists.</p>
  return (
    <ul className="space-y-1 text-sm" aria-label="Bars of this serial">
      {bars.map((b) => (
        <li key={`${b.vault}:${b.refiner}:${b.serial}`}>
          Bar <span className="font-mono">{b.serial}</span> ({b.refiner}, <span className="font-mono">{b.vault}</span>,{' '}
          {formatOunces(b.fineOz)}): <span data-status={b.status}>{BAR_MEANING[b.status] ?? b.status}</span>
        </li>
      ))}
    </ul>
  )
}
