import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiOperations } from '@/lib/web/openapi/apiOperations'
import { buildOpenApiDocument } from '@/lib/web/openapi/buildOpenApiDocument'
import { OPENAPI_TYPES_MODULE, openApiTypesModule } from '@/scripts/openapi/openApiTypesModule'
import type { paths } from './openapi.generated'

const root = path.resolve(import.meta.dirname, '..', '..')

describe('cli/apiClient/openapi.generated.ts', () => {
  it('is what scripts/openapi-types.ts generates from the current OpenAPI document (else run npm run openapi:types)', async () => {
    const expected = await openApiTypesModule(buildOpenApiDocument())
    expect(readFileSync(path.join(root, OPENAPI_TYPES_MODULE), 'utf8')).toBe(expected)
  })

  it('tells a drift: a document with one more operation generates another file', async () => {
    const drifted = buildOpenApiDocument({ operations: [...apiOperations, { ...apiOperations[0]!, path: '/api/x' }] })
    expect(await openApiTypesModule(drifted)).not.toBe(await openApiTypesModule(buildOpenApiDocument()))
  })

  it('types every path of the document', () => {
    const documented = Object.keys(buildOpenApiDocument().paths ?? {}).sort()
    const typed: (keyof paths)[] = ['/api/health', '/api/gold/mint', '/api/gold/mint/{orderId}/approve']
    for (const p of typed) expect(documented).toContain(p)
    const text = readFileSync(path.join(root, OPENAPI_TYPES_MODULE), 'utf8')
    for (const p of documented) expect(text).toContain(`    "${p}": {`)
  })
})
