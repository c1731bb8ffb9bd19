// GET /api/openapi.json - the API as an OpenAPI 3.1 document, generated from the zod schemas the routes validate
// with (lib/web/openapi; public, like the contract docs/api.md describes; /docs/api renders it)
import { route } from '@/lib/web/http/route'
import { getOpenApiDocument } from '@/lib/web/openapi/getOpenApiDocument'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  handler: () => getOpenApiDocument(),
})
