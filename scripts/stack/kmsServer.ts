import { createHash, createPublicKey, randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { BaseError } from '../../lib/errors/BaseError'

/**
 * The local KMS endpoint of the dev stack and the tests: a node:http server on
 * 127.0.0.1 that speaks the AWS KMS JSON 1.1 protocol for the operations mintdesk uses
 * (CreateKey, DescribeKey, GetPublicKey, Sign, ListKeys) with ECC_SECG_P256K1 keys, so
 * the real @aws-sdk/client-kms client and the real DER / EIP-2 code run everywhere.
 *
 * Like real KMS it returns DER signatures and does NOT normalise s: about half of them
 * are high-s, which the signer (worker/signer) must fix. Private keys are kept in
 * `${dataDir}/keys.json` (mode 0600) so a restart keeps them. It checks that a request
 * is signed (an Authorization header) but does not verify SigV4: it is a loopback-only
 * development tool, not a security boundary.
 */

export type StartKmsServerParameters = {
  dataDir: string
  /** 0 (the default) picks a free port */
  port?: number
  /** the region and account that appear in key ARNs */
  region?: string
  accountId?: string
}

export type StartKmsServerReturnType = {
  /** http://127.0.0.1:PORT, the `endpoint` for createKmsClient */
  url: string
  port: number
  stop(): Promise<void>
}

type StoredKey = {
  keyId: string
  arn: string
  /** ISO 8601 */
  createdAt: string
  description: string
  /** secp256k1 secret scalar, 32 bytes hex (no 0x) */
  privateKey: string
}

type KeysFile = { version: 1; keys: StoredKey[] }

type KmsErrorType =
  | 'NotFoundException'
  | 'ValidationException'
  | 'UnsupportedOperationException'
  | 'InvalidKeyUsageException'
  | 'MissingAuthenticationTokenException'
  | 'SerializationException'
  | 'UnknownOperationException'
  | 'InvalidMarkerException'

class KmsServiceError extends Error {
  override name = 'KmsServiceError'
  constructor(
    readonly type: KmsErrorType,
    message: string,
  ) {
    super(message)
  }
}

export class KmsServerStartError extends BaseError {
  override name = 'KmsServerStartError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('internal_error', message, options)
  }
}

const CONTENT_TYPE = 'application/x-amz-json-1.1'
const KEY_SPEC = 'ECC_SECG_P256K1'
const SIGNING_ALGORITHM = 'ECDSA_SHA_256'
const MAX_BODY_BYTES = 1024 * 1024
const MAX_RAW_MESSAGE_BYTES = 4096
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export async function startKmsServer({
  dataDir,
  port = 0,
  region = 'us-east-1',
  accountId = '000000000000',
}: StartKmsServerParameters): Promise<StartKmsServerReturnType> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const keysPath = path.join(dataDir, 'keys.json')
  const keys = loadKeys(keysPath)

  const save = () => {
    const file: KeysFile = { version: 1, keys: [...keys.values()] }
    const tmp = `${keysPath}.${process.pid}.${randomUUID()}.tmp`
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
    chmodSync(tmp, 0o600)
    renameSync(tmp, keysPath)
  }

  const findKey = (body: Record<string, unknown>): StoredKey => {
    const keyId = requireString(body, 'KeyId', 2048)
    if (keyId.startsWith('alias/') || keyId.includes(':alias/')) {
      throw new KmsServiceError('NotFoundException', `Alias ${keyId} is not found.`)
    }
    const id = keyId.startsWith('arn:') ? keyId.slice(keyId.lastIndexOf('/') + 1) : keyId
    const key = keys.get(id.toLowerCase())
    if (!key || (keyId.startsWith('arn:') && keyId !== key.arn)) {
      throw new KmsServiceError('NotFoundException', `Key '${keyId}' does not exist`)
    }
    return key
  }

  const operations: Record<string, (body: Record<string, unknown>) => unknown> = {
    CreateKey(body) {
      const keySpec = optionalString(body, 'KeySpec') ?? optionalString(body, 'CustomerMasterKeySpec') ?? 'SYMMETRIC_DEFAULT'
      if (keySpec !== KEY_SPEC) {
        throw new KmsServiceError('UnsupportedOperationException', `the local KMS endpoint only creates ${KEY_SPEC} keys, not ${keySpec}`)
      }
      const keyUsage = optionalString(body, 'KeyUsage') ?? 'ENCRYPT_DECRYPT'
      if (keyUsage !== 'SIGN_VERIFY') {
        throw new KmsServiceError('ValidationException', `KeyUsage ${keyUsage} is not compatible with KeySpec ${KEY_SPEC}`)
      }
      const origin = optionalString(body, 'Origin') ?? 'AWS_KMS'
      if (origin !== 'AWS_KMS') throw new KmsServiceError('UnsupportedOperationException', `Origin ${origin} is not supported`)
      const description = optionalString(body, 'Description') ?? ''
      if (description.length > 8192) throw new KmsServiceError('ValidationException', 'Description is longer than 8192 characters')
      const keyId = randomUUID()
      const key: StoredKey = {
        keyId,
        arn: `arn:aws:kms:${region}:${accountId}:key/${keyId}`,
        createdAt: new Date().toISOString(),
        description,
        privateKey: Buffer.from(secp256k1.utils.randomSecretKey()).toString('hex'),
      }
      keys.set(keyId, key)
      save()
      return { KeyMetadata: keyMetadata(key, accountId) }
    },

    DescribeKey(body) {
      return { KeyMetadata: keyMetadata(findKey(body), accountId) }
    },

    GetPublicKey(body) {
      const key = findKey(body)
      return {
        KeyId: key.arn,
        PublicKey: spkiDer(key).toString('base64'),
        CustomerMasterKeySpec: KEY_SPEC,
        KeySpec: KEY_SPEC,
        KeyUsage: 'SIGN_VERIFY',
        SigningAlgorithms: [SIGNING_ALGORITHM],
      }
    },

    Sign(body) {
      const key = findKey(body)
      const algorithm = requireString(body, 'SigningAlgorithm', 64)
      if (algorithm !== SIGNING_ALGORITHM) {
        throw new KmsServiceError('InvalidKeyUsageException', `SigningAlgorithm ${algorithm} is not supported by key ${key.arn}, only ${SIGNING_ALGORITHM}`)
      }
      const message = requireBlob(body, 'Message')
      const messageType = optionalString(body, 'MessageType') ?? 'RAW'
      let digest: Uint8Array
      if (messageType === 'DIGEST') {
        if (message.length !== 32) {
          throw new KmsServiceError('ValidationException', `Digest is invalid length for algorithm ${SIGNING_ALGORITHM}: ${message.length} bytes, expected 32`)
        }
        digest = message
      } else if (messageType === 'RAW') {
        if (message.length < 1 || message.length > MAX_RAW_MESSAGE_BYTES) {
          throw new KmsServiceError('ValidationException', `Message must be 1 to ${MAX_RAW_MESSAGE_BYTES} bytes`)
        }
        digest = createHash('sha256').update(message).digest()
      } else {
        throw new KmsServiceError('ValidationException', `MessageType ${messageType} is not RAW or DIGEST`)
      }
      // no low-s normalisation, and fresh randomness each time, as real KMS: a high s
      // comes back about half of the time
      const signature = secp256k1.sign(digest, Buffer.from(key.privateKey, 'hex'), {
        prehash: false,
        lowS: false,
        format: 'der',
        extraEntropy: true,
      })
      return { KeyId: key.arn, Signature: Buffer.from(signature).toString('base64'), SigningAlgorithm: SIGNING_ALGORITHM }
    },

    ListKeys(body) {
      const limit = optionalNumber(body, 'Limit') ?? 100
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new KmsServiceError('ValidationException', 'Limit must be 1 to 1000')
      const marker = optionalString(body, 'Marker')
      const start = marker === undefined ? 0 : /^\d+$/.test(marker) ? Number(marker) : Number.NaN
      if (!Number.isInteger(start) || start < 0) throw new KmsServiceError('InvalidMarkerException', `invalid Marker ${marker}`)
      const all = [...keys.values()]
      const page = all.slice(start, start + limit)
      const truncated = start + limit < all.length
      return {
        Keys: page.map((k) => ({ KeyId: k.keyId, KeyArn: k.arn })),
        Truncated: truncated,
        ...(truncated ? { NextMarker: String(start + limit) } : {}),
      }
    },
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID()
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body)
      res.writeHead(status, {
        'Content-Type': CONTENT_TYPE,
        'Content-Length': Buffer.byteLength(text),
        'x-amzn-RequestId': requestId,
      })
      res.end(text)
    }
    const fail = (err: KmsServiceError) => send(400, { __type: err.type, message: err.message })

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
      if (!op) throw new KmsServiceError('UnsupportedOperationException', `${match[1]} is not supported by the local KMS endpoint`)

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
      send(200, op(parsed as Record<string, unknown>))
    } catch (err) {
      if (err instanceof KmsServiceError) return fail(err)
      send(500, { __type: 'KMSInternalException', message: 'internal error in the local KMS endpoint' })
      console.error('[kms] internal error', err)
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new KmsServerStartError(`cannot listen on 127.0.0.1:${port}`, { cause: err })))
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const actualPort = (server.address() as AddressInfo).port // listening on TCP, so an AddressInfo

  let stopping: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return stopping
    },
  }
}

function loadKeys(keysPath: string): Map<string, StoredKey> {
  const keys = new Map<string, StoredKey>()
  if (!existsSync(keysPath)) return keys
  let file: KeysFile
  try {
    // our own file, written by save(); its shape is checked below
    file = JSON.parse(readFileSync(keysPath, 'utf8')) as KeysFile
  } catch (err) {
    throw new KmsServerStartError(`${keysPath} is not valid JSON; refusing to overwrite it`, { cause: err })
  }
  if (file.version !== 1 || !Array.isArray(file.keys)) throw new KmsServerStartError(`${keysPath} has an unknown format`)
  for (const k of file.keys) {
    if (!UUID_RE.test(k.keyId) || !/^[0-9a-f]{64}$/.test(k.privateKey)) throw new KmsServerStartError(`${keysPath} holds a malformed key`)
    keys.set(k.keyId.toLowerCase(), k)
  }
  chmodSync(keysPath, 0o600)
  return keys
}

function keyMetadata(key: StoredKey, accountId: string) {
  return {
    AWSAccountId: accountId,
    KeyId: key.keyId,
    Arn: key.arn,
    CreationDate: Math.floor(Date.parse(key.createdAt) / 1000),
    Enabled: true,
    Description: key.description,
    KeyUsage: 'SIGN_VERIFY',
    KeyState: 'Enabled',
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    CustomerMasterKeySpec: KEY_SPEC,
    KeySpec: KEY_SPEC,
    SigningAlgorithms: [SIGNING_ALGORITHM],
    MultiRegion: false,
  }
}

/** The DER SubjectPublicKeyInfo, encoded by node's OpenSSL rather than by our own code. */
function spkiDer(key: StoredKey): Buffer {
  const point = secp256k1.getPublicKey(Buffer.from(key.privateKey, 'hex'), false)
  const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url')
  return createPublicKey({
    key: { kty: 'EC', crv: 'secp256k1', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  }).export({ type: 'spki', format: 'der' })
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
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

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new KmsServiceError('ValidationException', `${field} must be a string`)
  return v
}

function requireString(body: Record<string, unknown>, field: string, maxLength: number): string {
  const v = optionalString(body, field)
  if (v === undefined || v.length === 0) {
    throw new KmsServiceError('ValidationException', `1 validation error detected: Value null at '${lowerFirst(field)}' failed to satisfy constraint: Member must not be null`)
  }
  if (v.length > maxLength) throw new KmsServiceError('ValidationException', `${field} is longer than ${maxLength} characters`)
  return v
}

function optionalNumber(body: Record<string, unknown>, field: string): number | undefined {
  const v = body[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number') throw new KmsServiceError('ValidationException', `${field} must be a number`)
  return v
}

function requireBlob(body: Record<string, unknown>, field: string): Uint8Array {
  const v = requireString(body, field, 8 * 1024)
  if (!BASE64_RE.test(v)) throw new KmsServiceError('SerializationException', `${field} is not base64`)
  return new Uint8Array(Buffer.from(v, 'base64'))
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1)
}
