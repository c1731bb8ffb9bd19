import type { OrderEmail } from './composeOrderEmail'
import { escapeHtml } from './escapeHtml'
import { type OrderEventKind, orderEventFacts } from './orderEventFacts'
import { orderLink } from './orderLink'

/** one order event of a digest, as notification_events holds it, with its recipient's label and a rejection's words */
export type DigestItem = {
  type: string
  orderId: string
  payload: Record<string, unknown>
  recipientLabel?: string | null
  rejectionReason?: string | null
}

export type ComposeDigestEmailParameters = {
  /** two or more events to one address, oldest first (one event: composeOrderEmail) */
  items: readonly DigestItem[]
  /** APP_URL: the base of each order's link */
  appUrl: string
}

/** what each kind of event says in a digest's line, and in its subject's count */
const STATUS: Record<OrderEventKind, string> = {
  confirmed: 'confirmed',
  failed: 'failed',
  rejected: 'rejected',
  cancelled: 'cancelled',
  awaiting_approval: 'awaiting approval',
  other: 'updated',
}

/**
 * One email for several order events to the same person (the digest): a
 * subject that counts them, then a line per order, oldest first, with its status, amount,
 * recipient, the transaction or the reason, and the order's link; plain text and HTML with
 * the same content, every value from an order HTML-escaped. A requester of a thousand
 * mints gets a few of these, not a thousand emails.
 */
export function composeDigestEmail({ items, appUrl }: ComposeDigestEmailParameters): Omit<OrderEmail, 'link'> {
  const lines = items.map((item) => {
    const facts = orderEventFacts(item)
    const { amount, outcome, note } = facts
    const to = facts.label ? `${facts.label} (${facts.to})` : facts.to
    const detail = [outcome ? `${outcome.label}: ${outcome.value}` : '', note ? `Reason given: ${note}` : '']
      .filter(Boolean)
      .join(', ')
    const status = STATUS[facts.kind]
    return {
      status,
      amount,
      to,
      detail,
      orderId: item.orderId,
      link: orderLink({ appUrl, orderId: item.orderId, type: item.type }),
    }
  })
  const headline = headlineOf(items)
  const text = [
    headline,
    '',
    ...lines.flatMap((l) => [
      `- ${capitalize(l.status)}: ${l.amount} to ${l.to}${l.detail ? `, ${l.detail}` : ''}`,
      `  ${l.link}`,
    ]),
    '',
    '-- mintdesk',
  ].join('\n')
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(capitalize(l.status))}</td><td>${escapeHtml(l.amount)}</td><td>${escapeHtml(l.to)}</td><td>${escapeHtml(l.detail)}</td>` +
        `<td><a href="${escapeHtml(l.link)}">${escapeHtml(l.orderId)}</a></td></tr>`,
    )
    .join('')
  const head =
    '<tr><th align="left">Status</th><th align="left">Amount</th><th align="left">Recipient</th><th align="left">Transaction or reason</th><th align="left">Order</th></tr>'
  const html = `<!doctype html><html><body><h1>${escapeHtml(headline)}</h1><table>${head}${rows}</table><p>-- mintdesk</p></body></html>`
  return { subject: `[mintdesk] ${headline}`, text, html }
}

/** "12 of your mints are confirmed", "3 mints await your approval", or the counts by status */
function headlineOf(items: readonly DigestItem[]): string {
  const counts = new Map<OrderEventKind, number>()
  for (const item of items) {
    const { kind } = orderEventFacts(item)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  const n = items.length
  if (counts.size === 1) {
    if (counts.has('confirmed')) return `${n} of your mints are confirmed`
    if (counts.has('failed')) return `${n} of your mints failed`
    if (counts.has('rejected')) return `${n} of your mints were rejected`
    if (counts.has('cancelled')) return `${n} of your mints were cancelled`
    if (counts.has('awaiting_approval')) return `${n} mints await your approval`
  }
  const parts = [...counts].map(([kind, count]) => `${count} ${STATUS[kind]}`)
  return `${n} mint updates: ${parts.join(', ')}`
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1)
}
