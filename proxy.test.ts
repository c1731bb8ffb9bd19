import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server'
import { describe, expect, it, vi } from 'vitest'
import { config } from './proxy'

// Only the matcher is under test here (decidePageAccess.test.ts covers the decisions);
// next-auth's ESM build does not load under plain Node, so it is stubbed.
vi.mock('next-auth', () => ({ default: () => ({ auth: (handler: unknown) => handler }) }))
vi.mock('@/lib/auth/nextAuthConfig', () => ({ authConfig: () => ({}) }))

const matches = (url: string) => unstable_doesMiddlewareMatch({ config, url })

describe('proxy matcher', () => {
  it('runs on pages', () => {
    for (const url of ['/', '/login', '/mints', '/mints/new', '/mints/0b9f?x=1', '/admin', '/admin/jobs/17', '/forbidden', '/apiary']) {
      expect(matches(url), url).toBe(true)
    }
  })
  it('never runs on API routes (they answer 401/403 JSON themselves), Next assets or icons', () => {
    for (const url of ['/api', '/api/health', '/api/gold/mint', '/api/auth/csrf', '/_next/static/chunks/a.js', '/_next/image?url=x', '/favicon.ico', '/icon.svg']) {
      expect(matches(url), url).toBe(false)
    }
  })
})
