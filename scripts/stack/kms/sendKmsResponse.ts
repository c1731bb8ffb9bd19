import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { KmsServiceError } from '../../errors/stack'
import { CONTENT_TYPE } from './kmsProtocol'

/** One answer in the KMS JSON protocol, with its own x-amzn-RequestId. */
export function sendKmsResponse(res: ServerResponse, { status, body }: { status: number; body: unknown }): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(text),
    'x-amzn-RequestId': randomUUID(),
  })
  res.end(text)
}

/**
 * An error as KMS answers it: a refused request is a 400 `{ __type, message }` that
 * the SDK turns into its named exception; anything else is a bug here, a 500
 * KMSInternalException whose details go to this process's log only.
 */
export function sendKmsError(res: ServerResponse, { error }: { error: unknown }): void {
  if (error instanceof KmsServiceError) {
    sendKmsResponse(res, { status: 400, body: { __type: error.type, message: error.message } })
    return
  }
  sendKmsResponse(res, {
    status: 500,
    body: { __type: 'KMSInternalException', message: 'internal error in the local KMS endpoint' },
  })
  console.error('[kms] internal error', error)
}
