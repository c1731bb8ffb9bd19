import type { IncomingMessage } from 'node:http'
import { KmsServiceError } from '../../errors/stack'

const MAX_BODY_BYTES = 1024 * 1024

/** The request's body, refused past 1 MiB (real KMS's requests are a few KB). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    // node:http yields Buffers for a request without setEncoding
    const buf = chunk as Buffer
    size += buf.length
    if (size > MAX_BODY_BYTES) throw new KmsServiceError('ValidationException', 'request body too large')
    chunks.push(buf)
  }
  return Buffer.concat(chunks)
}
