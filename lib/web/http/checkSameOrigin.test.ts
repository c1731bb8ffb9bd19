import { describe, expect, it } from 'vitest'
import { ForbiddenError } from '@/lib/web/errors/auth'
import { checkSameOrigin, requestOrigin } from './checkSameOrigin'

function req(method: string, headers: Record<string, string>, url = 'http://localhost:3000/api/gold/mint') {
  return new Request(url, { method, headers })
}

const ok = (r: Request, appUrl?: string) => expect(() => checkSameOrigin(r, { appUrl })).not.toThrow()
const refused = (r: Request, appUrl?: string) => expect(() => checkSameOrigin(r, { appUrl })).toThrow(ForbiddenError)

describe('checkSameOrigin', () => {
  it('lets safe methods through whatever their origin', () => {
    ok(req('GET', { origin: 'https://evil.test' }))
    ok(req('HEAD', {}))
    ok(req('OPTIONS', {}))
  })

  it('with APP_URL: Origin must equal it', () => {
    const appUrl = 'https://desk.mint.example'
    ok(req('POST', { origin: 'https://desk.mint.example' }), appUrl)
    ok(req('POST', { origin: 'https://DESK.mint.example:443' }), appUrl)
    refused(req('POST', { origin: 'https://evil.test' }), appUrl)
    refused(req('POST', { origin: 'http://desk.mint.example' }), appUrl)
    refused(req('POST', { origin: 'https://desk.mint.example.evil.test' }), appUrl)
    refused(req('DELETE', { origin: 'null' }), appUrl)
    // APP_URL wins over what the request claims about itself
    refused(req('POST', { origin: 'https://evil.test', host: 'evil.test' }), appUrl)
  })

  it('without APP_URL: Origin must equal the request’s own origin (Host / X-Forwarded-*)', () => {
    ok(req('POST', { origin: 'http://localhost:3000', host: 'localhost:3000' }))
    ok(req('PUT', { origin: 'http://localhost:3000' }))
    ok(
      req('PATCH', {
        origin: 'https://desk.example',
        host: '10.0.0.5:3000',
        'x-forwarded-host': 'desk.example',
        'x-forwarded-proto': 'https',
      }),
    )
    refused(req('POST', { origin: 'http://localhost:3001', host: 'localhost:3000' }))
    refused(req('POST', { origin: 'http://evil.test', host: 'localhost:3000' }))
  })

  it('without Origin: Sec-Fetch-Site must be same-origin; with neither, refused', () => {
    ok(req('POST', { 'sec-fetch-site': 'same-origin' }))
    refused(req('POST', { 'sec-fetch-site': 'same-site' }))
    refused(req('POST', { 'sec-fetch-site': 'cross-site' }))
    refused(req('POST', { 'sec-fetch-site': 'none' }))
    refused(req('POST', {}))
  })

  it('answers 403 forbidden', () => {
    try {
      checkSameOrigin(req('POST', { origin: 'https://evil.test' }))
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ForbiddenError)
      expect((e as ForbiddenError).code).toBe('forbidden')
    }
  })
})

describe('requestOrigin', () => {
  it('prefers X-Forwarded-Proto/Host, then Host, then the URL', () => {
    expect(requestOrigin(req('GET', { 'x-forwarded-host': 'a.test, b.test', 'x-forwarded-proto': 'https,http' }))).toBe(
      'https://a.test',
    )
    expect(requestOrigin(req('GET', { host: 'desk.test:8080' }))).toBe('http://desk.test:8080')
    expect(requestOrigin(req('GET', {}))).toBe('http://localhost:3000')
  })
})
