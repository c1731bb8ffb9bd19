import { escapeHtml } from './escapeHtml'
import { orderEventFacts } from './orderEventFacts'
import { orderLink } from './orderLink'

export type ComposeOrderEmailParameters = {
  type: string
  orderId: string
  payload: Record<string, unknown>
  /** APP_URL: the base of the order's link */
  appUrl: string
}

export type OrderEmail = { subject: string; text: string; html: string; link: string }

/**
 * The email of an order event, as plain text and HTML with the same content: what
 * happened, the amount, the recipient, the transaction or the reason, and a link to the
 * order's page (APP_URL/mints/{orderId}). Every value from the order is HTML-escaped.
 */
export function composeOrderEmail({ type, orderId, payload, appUrl }: ComposeOrderEmailParameters): OrderEmail {
  const link = orderLink({ appUrl, orderId })
  const { amount, to, outcome } = orderEventFacts({ type, payload })
  const facts: [string, string][] = [
    ['Order', orderId],
    ['Amount', amount],
    ['Recipient', to],
  ]
  if (outcome) facts.push([outcome.label, outcome.value])
  let headline: string
  if (type === 'mint.confirmed') {
    headline = `Your mint of ${amount} is confirmed`
  } else if (type === 'mint.failed') {
    headline = `Your mint of ${amount} failed`
  } else if (type === 'mint.awaiting_approval') {
    headline = `A mint of ${amount} awaits your approval`
  } else {
    headline = `Mint order ${orderId}: ${type}`
  }
  const text = [
    headline,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    `Open the order: ${link}`,
    '',
    '-- mintdesk',
  ].join('\n')
  const rows = facts
    .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('')
  const html = `<!doctype html><html><body><h1>${escapeHtml(headline)}</h1><table>${rows}</table><p><a href="${escapeHtml(link)}">Open the order</a></p><p>-- mintdesk</p></body></html>`
  return { subject: `[mintdesk] ${headline}`, text, html, link }
}
