import { describe, expect, it } from 'vitest'
import { composeDigestEmail } from './composeDigestEmail'

const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const order = (n: number) => `2b7c3c1e-5d7a-4a8f-9a51-0d6f3e3c9b${String(n).padStart(2, '0')}`
const confirmed = (n: number) => ({
  type: 'mint.confirmed',
  orderId: order(n),
  payload: { to, amountWei: '401084000000000000000', txHash: `0xabc${n}` },
})

describe('the digest of several order events to one address', () => {
  it('counts them in the subject and gives each order its line and link, oldest first, in text and HTML', () => {
    const email = composeDigestEmail({
      items: [confirmed(1), confirmed(2), confirmed(3)],
      appUrl: 'https://desk.example.com/',
    })
    expect(email.subject).toBe('[mintdesk] 3 of your mints are confirmed')
    const links = [1, 2, 3].map((n) => `https://desk.example.com/mints/${order(n)}`)
    expect(links.map((l) => email.text.indexOf(l))).toEqual(
      [...links.map((l) => email.text.indexOf(l))].sort((a, b) => a - b),
    )
    for (const [i, link] of links.entries()) {
      expect(email.text).toContain(`- Confirmed: 401.084 oz to ${to}, Transaction: 0xabc${i + 1}\n  ${link}`)
      expect(email.html).toContain(`<a href="${link}">${order(i + 1)}</a>`)
    }
  })

  it('names each status when they differ, and one kind by its own words', () => {
    const failed = {
      type: 'mint.failed',
      orderId: order(4),
      payload: { to, amountWei: '1000000000000000', reason: 'reverted' },
    }
    const waiting = {
      type: 'mint.awaiting_approval',
      orderId: order(5),
      payload: { to, amountWei: '1000000000000000' },
    }
    const mixed = composeDigestEmail({
      items: [confirmed(1), failed, confirmed(2), waiting],
      appUrl: 'http://localhost:3000',
    })
    expect(mixed.subject).toBe('[mintdesk] 4 mint updates: 2 confirmed, 1 failed, 1 awaiting approval')
    expect(mixed.text).toContain(
      `- Failed: 0.001 oz to ${to}, Reason: reverted: the mint transaction reverted on chain`,
    )
    expect(mixed.text).toContain(`- Awaiting approval: 0.001 oz to ${to}\n`)
    expect(
      composeDigestEmail({ items: [waiting, { ...waiting, orderId: order(6) }], appUrl: 'http://x' }).subject,
    ).toBe('[mintdesk] 2 mints await your approval')
    expect(composeDigestEmail({ items: [failed, { ...failed, orderId: order(7) }], appUrl: 'http://x' }).subject).toBe(
      '[mintdesk] 2 of your mints failed',
    )
  })

  it("a rejection and a cancel say so (their mint.failed status), with the label and the approver's words", () => {
    const rejected = {
      type: 'mint.failed',
      orderId: order(9),
      payload: { to, amountWei: '1000000000000000', status: 'rejected', reason: 'rejected' },
      recipientLabel: 'dev customer 1',
      rejectionReason: 'wrong vault',
    }
    const cancelled = {
      type: 'mint.failed',
      orderId: order(10),
      payload: { to, amountWei: '1000000000000000', status: 'cancelled', reason: 'cancelled' },
    }
    const email = composeDigestEmail({ items: [rejected, cancelled, confirmed(1)], appUrl: 'http://x' })
    expect(email.subject).toBe('[mintdesk] 3 mint updates: 1 rejected, 1 cancelled, 1 confirmed')
    expect(email.text).toContain(
      `- Rejected: 0.001 oz to dev customer 1 (${to}), Reason: rejected: the second person (an approver or an admin) rejected it, Reason given: wrong vault`,
    )
    expect(email.text).toContain(`- Cancelled: 0.001 oz to ${to}, Reason: cancelled: an admin cancelled it`)
    expect(
      composeDigestEmail({ items: [rejected, { ...rejected, orderId: order(11) }], appUrl: 'http://x' }).subject,
    ).toBe('[mintdesk] 2 of your mints were rejected')
  })

  it('escapes what comes from the orders in the HTML', () => {
    const hostile = {
      type: 'mint.failed',
      orderId: order(8),
      payload: { to: '<script>x</script>"><img src=x>', amountWei: 'x', reason: '<script>x</script>' },
    }
    const email = composeDigestEmail({ items: [confirmed(1), hostile], appUrl: 'http://localhost:3000' })
    expect(email.html).not.toContain('<script>')
    expect(email.html).not.toContain('<img')
    expect(email.html).toContain('&lt;script&gt;')
    // a reason that is not a code (an older event's text) is never shown
    expect(email.text).toContain('Reason: unspecified: no reason was recorded')
    expect(email.text).not.toContain('Reason: <script>')
  })
})
