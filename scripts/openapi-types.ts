// npm run openapi:types - write cli/apiClient/openapi.generated.ts, the typed paths of the API that
// cli/apiClient/createApiClient.ts is built on, from the OpenAPI document GET /api/openapi.json serves
// (lib/web/openapi/buildOpenApiDocument.ts); cli/apiClient/openapi.generated.test.ts checks it is current.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildOpenApiDocument } from '../lib/web/openapi/buildOpenApiDocument'
import { OPENAPI_TYPES_MODULE, openApiTypesModule } from './openapi/openApiTypesModule'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const text = await openApiTypesModule(buildOpenApiDocument())
writeFileSync(path.join(root, OPENAPI_TYPES_MODULE), text)
console.log(`wrote ${OPENAPI_TYPES_MODULE}: ${text.split('\n').length} lines`)
