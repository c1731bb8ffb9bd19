import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { verifyStandardWebhook } from '@/tests/helpers/verifyStandardWebhook'
import { signWebhook } from './signWebhook'

const current = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const previous = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

describe('signWebhook (Standard Webhooks)', () => {
  const id = 'evt_0b9f'
  const rawBody = '{"type":"mint.confirmed","timestamp":"2026-11-30T12:00:00.000Z","data":{}}'

  it('signs as the Standard Webhooks library does, and that library verifies it', () => {
    const timestamp = Math.floor(Date.now() / 1000)
    const header = signWebhook({ secrets: [current], id, timestamp, rawBody })
    expect(header).toBe(new Webhook(current).sign(id, new Date(timestamp * 1000), rawBody))
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': header }
    expect(verifyStandardWebhook({ secret: current, rawBody, headers })).toBe(true)
    // other bytes, another id, another secret, or a replay after the tolerance: refused
    expect(verifyStandardWebhook({ secret: current, rawBody: `${rawBody} `, headers })).toBe(false)
    expect(verifyStandardWebhook({ secret: current, rawBody, headers: { ...headers, 'webhook-id': 'evt_x' } })).toBe(
      false,
    )
    expect(verifyStandardWebhook({ secret: previous, rawBody, headers })).toBe(false)
    const old = timestamp - 301
    const replay = {
      ...headers,
      'webhook-timestamp': String(old),
      'webhook-signature': signWebhook({ secrets: [current], id, timestamp: old, rawBody }),
    }
    expect(verifyStandardWebhook({ secret: current, rawBody, headers: replay })).toBe(false)
  })

  it('during a rotation carries both signatures, space-separated: either secret verifies', () => {
    const timestamp = Math.floor(Date.now() / 1000)
    const header = signWebhook({ secrets: [current, previous], id, timestamp, rawBody })
    expect(header.split(' ')).toHaveLength(2)
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': header }
    expect(verifyStandardWebhook({ secret: current, rawBody, headers })).toBe(true)
    expect(verifyStandardWebhook({ secret: previous, rawBody, headers })).toBe(true)
  })

  it('keys a secret of the base64url alphabet (endpoints subscribed before) with the same bytes', () => {
    const timestamp = 1_796_000_000
    const bytes = Buffer.from('0123456789abcdef0123456789abcdef')
    const std = `whsec_${bytes.toString('base64')}`
    const url = `whsec_${bytes.toString('base64url')}`
    expect(signWebhook({ secrets: [url], id, timestamp, rawBody })).toBe(
      signWebhook({ secrets: [std], id, timestamp, rawBody }),
    )
  })
})
