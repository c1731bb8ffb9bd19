import { describe, expect, it } from 'vitest'
import { getClientIp } from './getClientIp'

const req = (headers: Record<string, string>) => ({ headers: new Headers(headers) })

describe('getClientIp', () => {
  it('takes the last X-Forwarded-For entry (added by the nearest hop)', () => {
    expect(getClientIp(req({ 'x-forwarded-for': '1.1.1.1, 203.0.113.9' }))).toBe('203.0.113.9')
    expect(getClientIp(req({ 'x-forwarded-for': '203.0.113.9' }))).toBe('203.0.113.9')
  })
  it('folds IPv4-mapped IPv6 into IPv4', () => {
    expect(getClientIp(req({ 'x-forwarded-for': '::ffff:127.0.0.1' }))).toBe('127.0.0.1')
    expect(getClientIp(req({ 'x-forwarded-for': '::1' }))).toBe('::1')
  })
  it('falls back to X-Real-IP, then null', () => {
    expect(getClientIp(req({ 'x-real-ip': '192.0.2.1' }))).toBe('192.0.2.1')
    expect(getClientIp(req({}))).toBeNull()
    expect(getClientIp(req({ 'x-forwarded-for': ' , ' }))).toBeNull()
  })
})
