// GET /docs/api/scalar.js - Scalar's standalone bundle, from the installed package (no CDN)
import { readScalarBundle } from '@/lib/web/docs/readScalarBundle'

export const dynamic = 'force-dynamic'

export async function GET(): Promise<Response> {
  return new Response(new Uint8Array(await readScalarBundle()), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'private, max-age=3600' },
  })
}
