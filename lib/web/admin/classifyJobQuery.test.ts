import { describe, expect, it } from 'vitest'
import { classifyJobQuery } from './classifyJobQuery'
import { decodeJobCursor, encodeJobCursor } from './jobCursor'

describe('classifyJobQuery', () => {
  it('reads the shape of the text', () => {
    expect(classifyJobQuery('  ')).toBeNull()
    expect(classifyJobQuery(undefined)).toBeNull()
    expect(classifyJobQuery('42')).toEqual({ kind: 'jobId', jobId: 42n })
    expect(classifyJobQuery('#42')).toEqual({ kind: 'jobId', jobId: 42n })
    // 8 digits: a job id, or the start of an order id made of digits
    expect(classifyJobQuery('12345678')).toMatchObject({
      kind: 'jobId',
      jobId: 12345678n,
      orderIdPrefix: { from: '12345678-0000-0000-0000-000000000000' },
    })
    expect(classifyJobQuery('0B9F6A3E-1C2D-4E5F-8A9B-0C1D2E3F4A5B')).toEqual({
      kind: 'orderId',
      orderId: '0b9f6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    })
    expect(classifyJobQuery('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toEqual({
      kind: 'recipient',
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    })
    const hash = `0x${'Ab'.repeat(32)}`
    expect(classifyJobQuery(hash)).toEqual({ kind: 'txHash', hash: hash.toLowerCase() })
    expect(classifyJobQuery('AccountFrozen')).toEqual({ kind: 'text', text: 'AccountFrozen' })
    expect(classifyJobQuery('0x7099')).toEqual({ kind: 'hexPrefix', prefix: '0x7099' })
    expect(classifyJobQuery('0xAB')).toEqual({ kind: 'hexPrefix', prefix: '0xab' })
    // an order id as the tables show it, and longer starts of one
    expect(classifyJobQuery('0981336B')).toEqual({
      kind: 'orderIdPrefix',
      from: '0981336b-0000-0000-0000-000000000000',
      to: '0981336b-ffff-ffff-ffff-ffffffffffff',
    })
    expect(classifyJobQuery('0981336b-1c2d-4')).toEqual({
      kind: 'orderIdPrefix',
      from: '0981336b-1c2d-4000-0000-000000000000',
      to: '0981336b-1c2d-4fff-ffff-ffffffffffff',
    })
    // not the shape of an order id's start: error text
    expect(classifyJobQuery('abc1234')).toEqual({ kind: 'text', text: 'abc1234' })
    expect(classifyJobQuery('deadbeefx')).toEqual({ kind: 'text', text: 'deadbeefx' })
  })
  it('refuses a text too short or too long (422 on q)', () => {
    expect(() => classifyJobQuery('ab')).toThrow(expect.objectContaining({ code: 'validation_failed' }))
    expect(() => classifyJobQuery('x'.repeat(201))).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: 'q' })] }),
    )
  })
})

describe('job cursor', () => {
  it('round-trips a job id', () => {
    for (const id of [1n, 17n, 9_007_199_254_740_993n]) expect(decodeJobCursor(encodeJobCursor(id))).toBe(id)
  })
  it('refuses a job id past the bigint range (422, not a 500 from Postgres)', () => {
    expect(decodeJobCursor(encodeJobCursor(9_223_372_036_854_775_807n))).toBe(9_223_372_036_854_775_807n)
    for (const id of [9_223_372_036_854_775_808n, 9_999_999_999_999_999_999n]) {
      expect(() => decodeJobCursor(encodeJobCursor(id))).toThrow(
        expect.objectContaining({ code: 'validation_failed', issues: [expect.objectContaining({ path: 'cursor' })] }),
      )
    }
  })
  it('refuses what it did not make', () => {
    for (const c of ['', '17', 'not a cursor', Buffer.from('x:17').toString('base64url'), 'a'.repeat(50)]) {
      expect(() => decodeJobCursor(c)).toThrow(expect.objectContaining({ code: 'validation_failed' }))
    }
  })
})
