import { z } from 'zod'

/**
 * GET /api/openapi.json's answer as a zod schema: the OpenAPI 3.1 document buildOpenApiDocument writes, down to each
 * operation's parameters and responses. The JSON Schemas in it (a parameter's, a body's, an answer's, the named ones
 * of `components.schemas`) are objects of JSON Schema 2020-12, whose keywords are JSON Schema's own.
 */

/** a JSON Schema (2020-12): an object of its keywords, or a `$ref` to one of `components.schemas` */
const jsonSchema = z.record(z.string(), z.unknown()).meta({ description: 'A JSON Schema (2020-12)' })

const mediaTypes = z.record(z.string(), z.object({ schema: jsonSchema }))

const operationSchema = z.object({
  summary: z.string(),
  /** `[]` on a public route; else the document's `session` applies */
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  /** the roles the route lets through */
  'x-roles': z.array(z.string()).optional(),
  parameters: z
    .array(
      z.object({
        in: z.enum(['path', 'query']),
        name: z.string(),
        required: z.boolean().optional(),
        schema: jsonSchema,
      }),
    )
    .optional(),
  requestBody: z.object({ required: z.boolean(), content: mediaTypes }).optional(),
  /** by status: the answer when it goes through, and each refusal in docs/api.md's one error shape */
  responses: z.record(z.string(), z.object({ description: z.string(), content: mediaTypes.optional() })),
})

export const openApiDocumentSchema = z.object({
  openapi: z.literal('3.1.0'),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  paths: z.record(
    z.string(),
    z.object({
      get: operationSchema.optional(),
      post: operationSchema.optional(),
      put: operationSchema.optional(),
      patch: operationSchema.optional(),
      delete: operationSchema.optional(),
    }),
  ),
  components: z.object({
    schemas: z.record(z.string(), jsonSchema),
    securitySchemes: z.record(
      z.string(),
      z.object({ type: z.literal('apiKey'), in: z.literal('cookie'), name: z.string() }),
    ),
  }),
})
