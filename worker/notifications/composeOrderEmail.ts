import { escapeHtml } from './escapeHtml'
import { type OrderEventFacts, type OrderEventKind, orderEventFacts } from './orderEventFacts'
import { orderLink } from './orderLink'

export type ComposeOrderEmailParameters = {
  type: string
  orderId: string
  payload: Record<string, unknown>
  /** APP_URL: the base of the order's link */
  appUrl: string
  /** the recipient's allowlist label, when it is listed (the subject names it) */
  recipientLabel?: string | null
  /** a rejection's reason in its approver's words */
  rejectionReason?: string | null
}

export type OrderEmail = { subject: string; text: string; html: string; link: string }

/** what the link invites its reader to do: an approver decides there, a requester reads */
const ACTION: Record<OrderEventKind, string> = {
  awaiting_approval: 'Approve or reject it',
  confirmed: 'Open the order',
  failed: 'Open the order',
  rejected: 'Open the order',
  cancelled: 'Open the order',
  other: 'Open the order',
}

/**
 * The email of an order event, as plain text and HTML with the same content: what
 * happened, the amount, the recipient, the transaction or the reason (a rejection's words
 * too), and a link to the order's page (APP_URL/mints/{orderId}), where an approver finds
 * approve and reject. The subject names the order: its short id and the recipient's
 * allowlist label (else its short address) beside the amount, so two orders' emails differ.
 * Every value from the order is HTML-escaped.
 *
 * @example
 * const email = composeOrderEmail({ type: 'mint.awaiting_approval', orderId, payload, appUrl, recipientLabel })
 * email.subject // with recipientLabel 'dev customer 1':
 * // '[mintdesk] A mint of 418.898 oz to dev customer 1 awaits your approval (order 0981336b)'
 */
export function composeOrderEmail(p: ComposeOrderEmailParameters): OrderEmail {
  const link = orderLink({ appUrl: p.appUrl, orderId: p.orderId, type: p.type })
  const facts = orderEventFacts(p)
  const party = facts.label ? `${facts.to} (${facts.label})` : facts.to
  const rows: [string, string][] =
    facts.noun === 'mint'
      ? [
          ['Order', p.orderId],
          ['Amount', facts.amount],
          ['Recipient', party],
        ]
      : facts.noun === 'redemption'
        ? [
            ['Redemption', p.orderId],
            ['Amount', facts.amount],
            ['Holder', party],
          ]
        : [
            ['Operation', p.orderId],
            ['Action', facts.noun],
            ...(facts.to === '' ? [] : [['Account', party] as [string, string]]),
          ]
  if (facts.outcome) rows.push([facts.outcome.label, facts.outcome.value])
  if (facts.note) rows.push(['Reason given', facts.note])
  const headline = headlineOf(p.type, facts)
  const action = ACTION[facts.kind]
  const text = [headline, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', `${action}: ${link}`, '', '-- mintdesk'].join(
    '\n',
  )
  const cells = rows
    .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('')
  const html = `<!doctype html><html><body><h1>${escapeHtml(headline)}</h1><table>${cells}</table><p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p>-- mintdesk</p></body></html>`
  const what = facts.noun === 'mint' ? 'order' : facts.noun === 'redemption' ? 'redemption' : 'operation'
  return { subject: `[mintdesk] ${headline} (${what} ${facts.shortId})`, text, html, link }
}

/**
 * "Your mint of 401.084 oz to dev customer 1 was rejected", "Your redemption of 401.084 oz from 0x7099...79c8 is
 * burned", "A freeze of 0x7099...79c8 awaits your approval"
 */
function headlineOf(type: string, f: OrderEventFacts): string {
  const mint =
    f.noun === 'mint'
      ? `mint of ${f.amount} to ${f.recipient}`
      : f.noun === 'redemption'
        ? `redemption of ${f.amount} from ${f.recipient}`
        : f.to === ''
          ? `${f.noun} of the token`
          : `${f.noun} of ${f.recipient}`
  switch (f.kind) {
    case 'awaiting_approval':
      return `A ${mint} awaits your approval`
    case 'confirmed':
      return f.noun === 'redemption'
        ? `Your ${mint} is burned`
        : f.noun === 'mint'
          ? `Your ${mint} is confirmed`
          : `Your ${mint} is applied`
    case 'failed':
      return `Your ${mint} failed`
    case 'rejected':
      return `Your ${mint} was rejected`
    case 'cancelled':
      return `Your ${mint} was cancelled`
    case 'other':
      return `${f.noun === 'mint' ? 'Mint order' : f.noun} ${f.shortId}: ${type}`
  }
}
