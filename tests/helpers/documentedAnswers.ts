import SwaggerParser from '@apidevtools/swagger-parser'
import { z } from 'zod'
import type { OpenApiDocument } from '@/lib/web/openapi/buildOpenApiDocument'

/** An answer of a route as a test received it: the operation's method and OpenAPI path, the status and body. */
export type ReceivedAnswer = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** the OpenAPI path of the route: `/api/gold/mint/{orderId}` */
  path: string
  status: number
  contentType: string | null
  body: unknown
  /** the body was not read (a stream, or not JSON): the status and media type are checked, not the body */
  bodyUnread?: true
}

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0]
type ResponseObject = { content?: Record<string, { schema?: JsonSchema }> }
type Dereferenced = { paths?: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>> }

const dereferenced = new WeakMap<OpenApiDocument, Promise<Dereferenced>>()
/** one validator per response schema of a dereferenced document (a route tested a thousand times builds it once) */
const validators = new WeakMap<object, z.ZodType>()

function validatorOf(schema: JsonSchema): z.ZodType {
  const key = schema as object
  let v = validators.get(key)
  if (!v) {
    v = z.fromJSONSchema(schema)
    validators.set(key, v)
  }
  return v
}

/** The document with its $refs inlined (swagger-parser works on a copy: it writes into what it is given). */
function inlined(document: OpenApiDocument): Promise<Dereferenced> {
  let d = dereferenced.get(document)
  if (!d) {
    d = SwaggerParser.dereference(structuredClone(document) as never) as Promise<Dereferenced>
    dereferenced.set(document, d)
  }
  return d
}

/**
 * What is wrong with an answer by the document: no operation, no response for its status, another media type, or
 * the body against the response's JSON Schema (read from the document, turned into a validator by zod's
 * fromJSONSchema, never the zod schemas the document was built from). [] when the answer is as documented.
 */
export async function answerProblems(document: OpenApiDocument, answer: ReceivedAnswer): Promise<string[]> {
  const op = (await inlined(document)).paths?.[answer.path]?.[answer.method]
  if (!op) return [`no operation ${answer.method} ${answer.path}`]
  const response = op.responses?.[String(answer.status)]
  if (!response) return [`${answer.method} ${answer.path}: no response ${answer.status}`]
  const media = Object.keys(response.content ?? {})
  if (media.length === 0) return []
  const type = answer.contentType?.split(';')[0]?.trim() ?? ''
  const schema = response.content?.[type]?.schema
  if (!schema) return [`${answer.method} ${answer.path} ${answer.status}: ${type || 'no body'}, documented ${media}`]
  if (answer.bodyUnread) return []
  const parsed = validatorOf(schema).safeParse(answer.body)
  if (parsed.success) return []
  return parsed.error.issues.map(
    (i) => `${answer.method} ${answer.path} ${answer.status} ${i.path.join('.') || '(body)'}: ${i.message}`,
  )
}

/** A route's answer read as JSON, with what answerProblems finds in it. */
export async function readAnswer(
  document: OpenApiDocument,
  res: Response,
  op: Pick<ReceivedAnswer, 'method' | 'path'>,
): Promise<{ answer: ReceivedAnswer; problems: string[] }> {
  const text = await res.text()
  const contentType = res.headers.get('content-type')
  const body: unknown = contentType?.includes('json') && text !== '' ? JSON.parse(text) : text
  const answer = { ...op, status: res.status, contentType, body }
  return { answer, problems: await answerProblems(document, answer) }
}
