// GET /docs/api - the API reference: Scalar renders GET /api/openapi.json, its bundle served from /docs/api/scalar.js
// (signed in: proxy.ts sends a visitor without a session to /login, and sets the page's CSP with this nonce)
import { apiReferenceHtml } from '@/lib/web/docs/apiReferenceHtml'

export const dynamic = 'force-dynamic'

export function GET(req: Request): Response {
  const html = apiReferenceHtml({
    nonce: req.headers.get('x-nonce') ?? '',
    documentUrl: '/api/openapi.json',
    scriptUrl: '/docs/api/scalar.js',
  })
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
}
