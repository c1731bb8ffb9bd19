import path from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { describe, expect, it } from 'vitest'
import { orderIdParamsSchema } from '@/lib/web/mint/orderIdParamsSchema'
import { mintOrderSchema } from '@/lib/web/mint/responseSchemas'
import { listApiRoutes } from '@/tests/attack/appRoutes'
import type { ApiOperation } from './ApiOperation'
import { apiOperations } from './apiOperations'
import { buildOpenApiDocument } from './buildOpenApiDocument'

const root = path.resolve(import.meta.dirname, '../../..')

/** app/api/gold/mint/[orderId] -> /api/gold/mint/{orderId}; next-auth's [...nextauth] -> {nextauth} */
const openApiPath = (pattern: string) => pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, '{$1}')

const routeOperations = listApiRoutes(root).flatMap((r) =>
  r.methods.map((m) => `${m.toLowerCase()} ${openApiPath(r.pattern)}`),
)
const documented = (operations: readonly ApiOperation[]) => operations.map((op) => `${op.method} ${op.path}`)

/** next-auth answers its own endpoints (csrf, session, its pages, redirects): not ours to describe */
const nextAuth = '/api/auth/{nextauth}'

/** The JSON answers of routes of ours, when they go through, that name no zod schema: `get /api/... 200`. */
const answersWithoutSchema = (operations: readonly ApiOperation[]) =>
  operations
    .filter((op) => op.path !== nextAuth)
    .flatMap((op) =>
      [op.success, ...(op.alsoSucceeds ?? [])]
        .filter((answer) => (answer.mediaType ?? 'application/json') === 'application/json' && !answer.schema)
        .map((answer) => `${op.method} ${op.path} ${answer.status}`),
    )

/** A copy of the document (the validator writes into what it is given). */
const validate = (operations?: readonly ApiOperation[]) =>
  SwaggerParser.validate(structuredClone(buildOpenApiDocument({ operations })) as never)

describe('the OpenAPI document', () => {
  it('has an operation for every method every route file under app/api exports', () => {
    expect(routeOperations.length).toBeGreaterThan(30)
    const missing = routeOperations.filter((op) => !documented(apiOperations).includes(op))
    expect(missing).toEqual([])
  })

  it('has no operation that no route answers, and none twice', () => {
    const ops = documented(apiOperations)
    expect(ops.filter((op) => !routeOperations.includes(op))).toEqual([])
    expect(ops.filter((op, i) => ops.indexOf(op) !== i)).toEqual([])
  })

  it('fails the walk when a route has no operation (one dropped from a copy of the list)', () => {
    const dropped = apiOperations.filter((op) => !(op.method === 'get' && op.path === '/api/gold/mint/{orderId}'))
    expect(routeOperations.filter((op) => !documented(dropped).includes(op))).toEqual(['get /api/gold/mint/{orderId}'])
  })

  it('gives every JSON answer a route sends when it goes through its zod schema', () => {
    expect(answersWithoutSchema(apiOperations)).toEqual([])
  })

  it('fails that check on a planted drift: an answer described in words only', () => {
    const drifted = apiOperations.map((op) =>
      op.method === 'get' && op.path === '/api/admin/signing'
        ? { ...op, success: { status: 200, description: '{ stopped, reason, changedBy, changedAt, auto }' } }
        : op,
    )
    expect(answersWithoutSchema(drifted)).toEqual(['get /api/admin/signing 200'])
  })

  it('passes an independent validator (@apidevtools/swagger-parser, OpenAPI 3.1)', async () => {
    const api = await validate()
    expect((api as { openapi?: string }).openapi).toBe('3.1.0')
    expect(Object.keys(api.paths ?? {}).length).toBe(new Set(apiOperations.map((op) => op.path)).size)
  })

  it('fails the validator on a planted drift: an operation whose path is not one (no leading slash)', async () => {
    const drifted: ApiOperation = {
      method: 'get',
      path: 'api/gold/mint/{orderId}',
      summary: 'a path written as a folder',
      roles: ['staff'],
      params: orderIdParamsSchema,
      success: { status: 200, description: 'The order', schema: mintOrderSchema },
    }
    await expect(validate([...apiOperations, drifted])).rejects.toThrow(/paths must NOT have unevaluated properties/)
  })

  it("names each path parameter by its route's params schema, and no other", () => {
    // swagger-parser does not check this for 3.1: a route folder renamed ([orderId] -> [id]) shows here
    const mismatched = apiOperations.filter((op) => {
      const inPath = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort()
      return (
        inPath.join() !==
        Object.keys(op.params?.shape ?? {})
          .sort()
          .join()
      )
    })
    expect(mismatched.map((op) => `${op.method} ${op.path}`)).toEqual([])
  })

  it('describes errors by the one shape of docs/api.md, and the answers by their zod schemas', () => {
    const doc = buildOpenApiDocument()
    const order = doc.paths?.['/api/gold/mint/{orderId}']?.get
    expect(order?.responses?.['404']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    })
    expect(order?.responses?.['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/MintOrder' } } },
    })
    expect(doc.components?.schemas?.Error).toMatchObject({ required: ['error'] })
  })
})
