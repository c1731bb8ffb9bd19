import type { IncomingMessage, ServerResponse } from 'node:http'
import { KmsServiceError } from '../../errors/stack'
import type { KmsOperation } from './kmsOperations'
import { CONTENT_TYPE, type KmsRequestBody } from './kmsProtocol'
import { readBody } from './readBody'
import { sendKmsError, sendKmsResponse } from './sendKmsResponse'

/**
 * One request of the KMS JSON 1.1 protocol, checked in KMS's order: POST /, a signed
 * request (an Authorization header; SigV4 itself is not verified: this is a
 * loopback-only development tool, not a security boundary), the JSON content type, a
 * known `X-Amz-Target: TrentService.<Operation>`, a JSON object body; then the
 * operation runs and its result is the 200 answer.
 */
export async function handleKmsRequest(
  operations: Record<string, KmsOperation>,
  { req, res }: { req: IncomingMessage; res: ServerResponse },
): Promise<void> {
  try {
    if (req.method !== 'POST' || (req.url !== '/' && req.url !== '')) {
      throw new KmsServiceError('UnknownOperationException', `${req.method} ${req.url} is not a KMS operation`)
    }
    const body = await readBody(req)
    if (!req.headers.authorization) {
      throw new KmsServiceError('MissingAuthenticationTokenException', 'Missing Authentication Token')
    }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim()
    if (contentType !== CONTENT_TYPE) {
      throw new KmsServiceError('SerializationException', `Content-Type must be ${CONTENT_TYPE}`)
    }
    const target = String(req.headers['x-amz-target'] ?? '')
    const match = /^TrentService\.(\w+)$/.exec(target)
    if (!match) throw new KmsServiceError('UnknownOperationException', `unknown X-Amz-Target '${target}'`)
    const op = Object.hasOwn(operations, match[1]) ? operations[match[1]] : undefined
    if (!op)
      throw new KmsServiceError(
        'UnsupportedOperationException',
        `${match[1]} is not supported by the local KMS endpoint`,
      )

    let parsed: unknown
    try {
      parsed = body.length === 0 ? {} : JSON.parse(body.toString('utf8'))
    } catch {
      throw new KmsServiceError('SerializationException', 'the request body is not JSON')
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new KmsServiceError('SerializationException', 'the request body is not a JSON object')
    }
    // checked just above to be a non-array object
    sendKmsResponse(res, { status: 200, body: op(parsed as KmsRequestBody) })
  } catch (error) {
    sendKmsError(res, { error })
  }
}
