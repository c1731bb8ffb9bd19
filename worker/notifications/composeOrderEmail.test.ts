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
    expect(email.subject).toBe('[mintdesk] Your mint of 401.084 oz is confirmed')
    expect(email.text).toContain(`Open the order: ${email.link}`)
    expect(email.html).toContain(`<a href="${email.link}">`)
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
