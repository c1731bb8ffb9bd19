import { describe, expect, it } from 'vitest'
import { apiReferenceHtml } from './apiReferenceHtml'

const html = apiReferenceHtml({ nonce: 'bm9uY2U=', documentUrl: '/api/openapi.json', scriptUrl: '/docs/api/scalar.js' })

describe('apiReferenceHtml', () => {
  it('runs one script, the bundle from our own origin, with the nonce; the reference element is data', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])
    expect(scripts).toHaveLength(2)
    expect(scripts[0]).toContain('type="application/json"')
    expect(scripts[1]).toBe(' nonce="bm9uY2U=" src="/docs/api/scalar.js"')
  })

  it('names no other origin, and tells Scalar to fetch nothing from one', () => {
    expect(html).not.toMatch(/https?:\/\//)
    const configuration = html.match(/data-configuration="([^"]*)"/)?.[1] ?? ''
    expect(JSON.parse(configuration.replaceAll('&quot;', '"'))).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
    })
    expect(html).toContain('data-url="/api/openapi.json"')
  })

  it('escapes what it puts in attributes', () => {
    const odd = apiReferenceHtml({ nonce: '"><script>', documentUrl: '/a', scriptUrl: '/b' })
    expect(odd).not.toContain('"><script>')
  })
})
