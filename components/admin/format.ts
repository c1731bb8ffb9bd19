import { formatEther, formatGwei } from 'viem'
import { formatUtc } from '@/components/ui/formatUtc'
import { shortHex as shortHexOf } from '@/lib/mint/shortHex'
import { shortOrderId } from '@/lib/mint/shortOrderId'

/** Display helpers of the admin pages. Wei stay bigints (viem's formatters): never a float for money. */

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const s = ms / 1000
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h} h ${m - h * 60} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

export function formatAge(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '—' : formatDuration(seconds * 1000)
}

/** "12 s ago", "3 min ago", or the date for anything older than two days. */
export function formatRelative(at: Date | null | undefined, now: Date = new Date()): string {
  if (!at) return '—'
  const diff = now.getTime() - at.getTime()
  if (diff < 0) return `in ${formatDuration(-diff)}`
  if (diff < 1000) return 'just now'
  if (diff > 48 * 3600 * 1000) return formatUtc(at)
  return `${formatDuration(diff)} ago`
}

export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined) return '—'
  const pct = ratio * 100
  return `${pct === 0 || pct === 100 || pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`
}

/** Wei as ETH with at most 4 decimals (rounded down), e.g. "9,999.9871 ETH". */
export function formatEth(wei: string | bigint | null | undefined): string {
  if (wei === null || wei === undefined) return '—'
  const [whole = '0', fraction = ''] = formatEther(BigInt(wei)).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const frac = fraction.slice(0, 4).replace(/0+$/, '')
  return `${grouped}${frac ? `.${frac}` : ''} ETH`
}

export function formatGweiOf(wei: string | bigint): string {
  const g = formatGwei(BigInt(wei))
  const [whole = '0', fraction = ''] = g.split('.')
  const frac = fraction.slice(0, 3).replace(/0+$/, '')
  return `${whole}${frac ? `.${frac}` : ''} gwei`
}

/** 0x7099…79C8: enough to tell addresses and hashes apart at a glance; the full value goes in `title`. */
export function shortHex(value: string | null | undefined, keep = 4): string {
  return value ? shortHexOf(value, 2 + keep, keep) : '—'
}

export function shortId(uuid: string | null | undefined): string {
  return uuid ? shortOrderId(uuid) : '—'
}
