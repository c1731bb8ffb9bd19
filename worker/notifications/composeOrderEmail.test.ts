import { describe, expect, it } from 'vitest'
import { buildWebhookBody } from './buildWebhookBody'
import { composeOrderEmail } from './composeOrderEmail'

const orderId = '2b7c3c1e-5d7a-4a8f-9a51-0d6f3e3c9b21'
const payload = {
  orderId,
  status: 'confirmed',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amountWei: '401084000000000000000',
  txHash: '0xabc',
}

describe('the email of an order event', () => {
  it('plain text and HTML with the amount in ounces and the order link', () => {
    const email = composeOrderEmail({ type: 'mint.confirmed', orderId, payload, appUrl: 'https://desk.example.com/' })
    expect(email.link).toBe(`https://desk.example.com/mints/${orderId}`)
    expect(email.subject).toBe('[mintdesk] Your mint of 401.084 oz to 0x7099…79C8 is confirmed (order 2b7c3c1e)')
    expect(email.text).toContain(`Open the order: ${email.link}`)
    expect(email.html).toContain(`<a href="${email.link}">`)
  })

  it("the approval email's subject names the order (short id, the recipient's label, the amount); its link is where to decide", () => {
    const other = '0981336b-1111-4222-8333-444455556666'
    const awaiting = (id: string, recipientLabel: string | null, amountWei: string) =>
      composeOrderEmail({
        type: 'mint.awaiting_approval',
        orderId: id,
        payload: { ...payload, orderId: id, status: 'awaiting_approval', amountWei, txHash: null },
        appUrl: 'http://localhost:3000',
        recipientLabel,
      })
    const a = awaiting(orderId, 'dev customer 1', '418898000000000000000')
    const b = awaiting(other, 'dev customer 1', '418898000000000000000')
    expect(a.subject).toBe('[mintdesk] A mint of 418.898 oz to dev customer 1 awaits your approval (order 2b7c3c1e)')
    expect(b.subject).toBe('[mintdesk] A mint of 418.898 oz to dev customer 1 awaits your approval (order 0981336b)')
    expect(a.subject).not.toBe(b.subject)
    expect(a.link).toBe(`http://localhost:3000/mints/${orderId}`)
    expect(a.text).toContain(`Approve or reject it: ${a.link}`)
    expect(a.html).toContain(`<a href="${a.link}">Approve or reject it</a>`)
    expect(a.text).toContain(`Recipient: ${payload.to} (dev customer 1)`)
    // an address no longer on the allowlist: its short form
    expect(awaiting(orderId, null, '1000000000000000').subject).toBe(
      '[mintdesk] A mint of 0.001 oz to 0x7099…79C8 awaits your approval (order 2b7c3c1e)',
    )
  })

  it("a rejected or cancelled order tells its requester, with the reason (a rejection in its approver's words)", () => {
    const rejected = composeOrderEmail({
      type: 'mint.failed',
      orderId,
      payload: { ...payload, status: 'rejected', reason: 'rejected', txHash: null },
      appUrl: 'http://x',
      recipientLabel: 'dev customer 2',
      rejectionReason: 'the receipt is for <another> vault',
    })
    expect(rejected.subject).toBe('[mintdesk] Your mint of 401.084 oz to dev customer 2 was rejected (order 2b7c3c1e)')
    expect(rejected.text).toContain('Reason: rejected: the second person (an approver or an admin) rejected it')
    expect(rejected.text).toContain('Reason given: the receipt is for <another> vault')
    expect(rejected.html).toContain('the receipt is for &lt;another&gt; vault')
    const cancelled = composeOrderEmail({
      type: 'mint.failed',
      orderId,
      payload: { ...payload, status: 'cancelled', reason: 'cancelled', txHash: null },
      appUrl: 'http://x',
      rejectionReason: 'never shown for a cancel',
    })
    expect(cancelled.subject).toBe('[mintdesk] Your mint of 401.084 oz to 0x7099…79C8 was cancelled (order 2b7c3c1e)')
    expect(cancelled.text).toContain('Reason: cancelled: an admin cancelled it')
    expect(cancelled.text).not.toContain('never shown')
    // a failure stays a failure
    const failed = composeOrderEmail({
      type: 'mint.failed',
      orderId,
      payload: { ...payload, status: 'failed', reason: 'reverted' },
      appUrl: 'http://x',
    })
    expect(failed.subject).toBe('[mintdesk] Your mint of 401.084 oz to 0x7099…79C8 failed (order 2b7c3c1e)')
  })

  it('escapes what comes from the order in the HTML', () => {
    const email = composeOrderEmail({
      type: 'mint.failed',
      orderId,
      payload: { ...payload, to: '<script>x</script>', reason: 'reverted' },
      appUrl: 'http://localhost:3000',
    })
    expect(email.html).not.toContain('<script>')
    expect(email.html).toContain('&lt;script&gt;')
    expect(email.text).toContain('Recipient: <script>x</script>')
  })

  it('a failed mint: the reason code and its fixed sentence, never an error text (even one an older event holds)', () => {
    const failed = (data: Record<string, unknown>) =>
      composeOrderEmail({ type: 'mint.failed', orderId, payload: { ...payload, ...data }, appUrl: 'http://x' })
    expect(failed({ reason: 'reverted' }).text).toContain('Reason: reverted: the mint transaction reverted on chain')
    const exhausted = failed({ reason: 'attempts_exhausted', lastError: 'nonce_consumed' })
    expect(exhausted.text).toContain('Reason: attempts_exhausted: every attempt failed (last: nonce_consumed)')
    expect(exhausted.html).toContain('attempts_exhausted: every attempt failed (last: nonce_consumed)')
    // an event recorded before reason codes: its text stays inside
    const text =
      'mint reverted on chain: FrozenAddress(0x90F79bf6EB2c4f870365E785982E1f101E93b906) at https://rpc.internal/key'
    for (const mail of [failed({ reason: text }), failed({ reason: 'reverted', lastError: text })]) {
      expect(mail.text).not.toContain('FrozenAddress')
      expect(mail.html).not.toContain('FrozenAddress')
      expect(mail.text).not.toContain('rpc.internal')
    }
    expect(failed({ reason: text }).text).toContain('Reason: unspecified: no reason was recorded')
    expect(failed({}).text).toContain('Reason: unspecified')
  })
})

describe('the webhook body and its signature', () => {
  it('a reason (and lastError) is a stable code: the text of an event recorded before the codes is never sent', () => {
    const body = (data: Record<string, unknown>) =>
      JSON.parse(
        buildWebhookBody({
          id: 'e2',
          type: 'mint.dead_letter',
          createdAt: new Date('2026-11-30T12:00:00Z'),
          payload: { ...payload, status: 'failed', task: 'mint_send', ...data },
        }),
      ).data as Record<string, unknown>
    expect(body({ reason: 'attempts_exhausted', lastError: 'nonce_consumed' })).toMatchObject({
      reason: 'attempts_exhausted',
      lastError: 'nonce_consumed',
      task: 'mint_send',
    })
    const text = 'gave up after 5 attempts: connect ECONNREFUSED 10.0.0.5:8545 (postgres://mintdesk:pw@db/x)'
    const old = buildWebhookBody({ id: 'e3', type: 'mint.failed', createdAt: new Date(0), payload: { reason: text } })
    expect(JSON.parse(old).data.reason).toBe('unspecified')
    expect(old).not.toContain('ECONNREFUSED')
    expect(body({ reason: 'reverted', lastError: text }).lastError).toBe('unspecified')
    // no reason, none added
    expect(body({})).not.toHaveProperty('reason')
    // a rejection or a cancel: a mint.failed body whose status and reason say which (decision 053)
    for (const ended of ['rejected', 'cancelled']) {
      expect(body({ status: ended, reason: ended })).toMatchObject({ status: ended, reason: ended })
    }
  })

  it('the contract fields first, amount in ounces, no wei, as the Standard Webhooks payload { type, timestamp, data }', () => {
    const raw = buildWebhookBody({
      id: 'e1',
      type: 'mint.confirmed',
      createdAt: new Date('2026-11-30T12:00:00Z'),
      payload,
    })
    expect(JSON.parse(raw)).toEqual({
      type: 'mint.confirmed',
      timestamp: '2026-11-30T12:00:00.000Z',
      data: { orderId, status: 'confirmed', to: payload.to, amount: '401.084', txHash: '0xabc' },
    })
  })
})

describe('the email of a redemption or a compliance operation', () => {
  const id = '3c8d4d2f-6e8b-4b9a-8b62-1e7f4f4dac32'
  const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  it('a burned redemption tells its requester, with the burn and a link to the redemption', () => {
    const email = composeOrderEmail({
      type: 'redemption.burned',
      orderId: id,
      payload: { redemptionId: id, status: 'burned', holder, amountWei: '2000000000000000000', txHash: '0xdef' },
      appUrl: 'http://localhost:3000',
    })
    expect(email.subject).toBe(
      '[mintdesk] Your redemption of 2.000 oz from 0x7099…79C8 is burned (redemption 3c8d4d2f)',
    )
    expect(email.link).toBe(`http://localhost:3000/redemptions/${id}`)
    expect(email.text).toContain('Holder: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(email.text).toContain('Transaction: 0xdef')
  })

  it('a redemption awaiting approval asks for a signature; a rejected one gives the reason', () => {
    const base = { redemptionId: id, holder, amountWei: '1000000000000000000' }
    const asked = composeOrderEmail({
      type: 'redemption.awaiting_approval',
      orderId: id,
      payload: { ...base, status: 'awaiting_approval' },
      appUrl: 'http://localhost:3000',
    })
    expect(asked.subject).toContain('A redemption of 1.000 oz from 0x7099…79C8 awaits your approval')
    const rejected = composeOrderEmail({
      type: 'redemption.failed',
      orderId: id,
      payload: { ...base, status: 'rejected', reason: 'rejected' },
      appUrl: 'http://localhost:3000',
      rejectionReason: 'the custodian has not released it',
    })
    expect(rejected.subject).toContain('Your redemption of 1.000 oz from 0x7099…79C8 was rejected')
    expect(rejected.text).toContain('Reason given: the custodian has not released it')
  })

  it('a freeze names its account, a pause the token; both link to the compliance page', () => {
    const freeze = composeOrderEmail({
      type: 'compliance.awaiting_approval',
      orderId: id,
      payload: { operationId: id, action: 'freeze', account: holder, status: 'awaiting_approval' },
      appUrl: 'http://localhost:3000',
    })
    expect(freeze.subject).toBe('[mintdesk] A freeze of 0x7099…79C8 awaits your approval (operation 3c8d4d2f)')
    expect(freeze.link).toBe('http://localhost:3000/admin/compliance')
    const pause = composeOrderEmail({
      type: 'compliance.applied',
      orderId: id,
      payload: { operationId: id, action: 'pause', account: null, status: 'applied', txHash: '0x1' },
      appUrl: 'http://localhost:3000',
    })
    expect(pause.subject).toBe('[mintdesk] Your pause of the token is applied (operation 3c8d4d2f)')
  })
})
