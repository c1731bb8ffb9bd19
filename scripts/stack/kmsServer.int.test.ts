import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import {
  CreateKeyCommand,
  DescribeKeyCommand,
  GetPublicKeyCommand,
  InvalidKeyUsageException,
  InvalidMarkerException,
  type KMSClient,
  KMSServiceException,
  ListKeysCommand,
  NotFoundException,
  SignCommand,
  UnsupportedOperationException,
} from '@aws-sdk/client-kms'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getKmsAddressOrThrow } from '@/scripts/stack/getKmsAddressOrThrow'
import { createKmsClient } from '@/worker/signer/createKmsClient'
import { getKmsPublicKeyOrThrow } from '@/worker/signer/getKmsPublicKeyOrThrow'
import { type StartKmsServerReturnType, startKmsServer } from './kmsServer'

describe('local KMS endpoint through @aws-sdk/client-kms', () => {
  let dir: string
  let server: StartKmsServerReturnType
  let kms: KMSClient

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mintdesk-kms-'))
    server = await startKmsServer({ dataDir: dir })
    kms = createKmsClient({ region: 'us-east-1', endpoint: server.url, env: {} })
  })
  afterAll(async () => {
    kms.destroy()
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const createKey = async () => {
    const res = await kms.send(
      new CreateKeyCommand({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY', Description: 'test' }),
    )
    const meta = res.KeyMetadata
    if (!meta?.KeyId || !meta.Arn) throw new Error('no key metadata')
    return meta
  }

  it('creates a key, returns its public key and signs digests that verify with @noble/curves', async () => {
    const meta = await createKey()
    expect(meta.KeySpec).toBe('ECC_SECG_P256K1')
    expect(meta.KeyUsage).toBe('SIGN_VERIFY')
    expect(meta.SigningAlgorithms).toEqual(['ECDSA_SHA_256'])
    expect(meta.Arn).toBe(`arn:aws:kms:us-east-1:000000000000:key/${meta.KeyId}`)
    expect(meta.CreationDate).toBeInstanceOf(Date)

    const pub = await kms.send(new GetPublicKeyCommand({ KeyId: meta.KeyId }))
    expect(pub.KeySpec).toBe('ECC_SECG_P256K1')
    expect(pub.SigningAlgorithms).toEqual(['ECDSA_SHA_256'])
    expect(pub.KeyId).toBe(meta.Arn)
    const point = await getKmsPublicKeyOrThrow(kms, { keyId: meta.KeyId ?? '' })

    const digest = createHash('sha256').update('hello').digest()
    const seenHighS = new Set<boolean>()
    for (let i = 0; i < 16; i++) {
      const res = await kms.send(
        new SignCommand({ KeyId: meta.Arn, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }),
      )
      expect(res.SigningAlgorithm).toBe('ECDSA_SHA_256')
      const der = res.Signature ?? new Uint8Array()
      const sig = secp256k1.Signature.fromBytes(der, 'der')
      seenHighS.add(sig.hasHighS())
      expect(
        secp256k1.verify(der, digest, Buffer.from(point.slice(2), 'hex'), {
          prehash: false,
          format: 'der',
          lowS: false,
        }),
      ).toBe(true)
    }
    // randomised like real KMS, and not normalised: both halves show up (2^-15 to fail)
    expect(seenHighS.size).toBe(2)
  })

  it('signs RAW messages as their SHA-256', async () => {
    const meta = await createKey()
    const point = await getKmsPublicKeyOrThrow(kms, { keyId: meta.KeyId ?? '' })
    const message = new TextEncoder().encode('a raw message')
    const res = await kms.send(
      new SignCommand({ KeyId: meta.KeyId, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
    )
    const digest = createHash('sha256').update(message).digest()
    expect(
      secp256k1.verify(res.Signature ?? new Uint8Array(), digest, Buffer.from(point.slice(2), 'hex'), {
        prehash: false,
        format: 'der',
        lowS: false,
      }),
    ).toBe(true)
  })

  it('describes and lists keys, with pagination', async () => {
    const a = await createKey()
    const described = await kms.send(new DescribeKeyCommand({ KeyId: a.Arn }))
    expect(described.KeyMetadata?.KeyId).toBe(a.KeyId)
    expect(described.KeyMetadata?.Enabled).toBe(true)
    const all = await kms.send(new ListKeysCommand({}))
    expect(all.Keys?.map((k) => k.KeyId)).toContain(a.KeyId)
    const first = await kms.send(new ListKeysCommand({ Limit: 1 }))
    expect(first.Keys).toHaveLength(1)
    expect(first.Truncated).toBe(true)
    const second = await kms.send(new ListKeysCommand({ Limit: 1000, Marker: first.NextMarker }))
    expect((second.Keys?.length ?? 0) + 1).toBe(all.Keys?.length)
  })

  it('answers errors in KMS shape, surfacing as the SDK exception classes', async () => {
    const missing = '7d2b1a36-0000-4000-8000-000000000000'
    const notFound = await kms.send(new GetPublicKeyCommand({ KeyId: missing })).catch((e: unknown) => e)
    expect(notFound).toBeInstanceOf(NotFoundException)
    expect((notFound as NotFoundException).$metadata.httpStatusCode).toBe(400)
    await expect(kms.send(new DescribeKeyCommand({ KeyId: 'alias/nope' }))).rejects.toBeInstanceOf(NotFoundException)

    const meta = await createKey()
    await expect(
      kms.send(
        new SignCommand({
          KeyId: meta.KeyId,
          Message: new Uint8Array(31),
          MessageType: 'DIGEST',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException', $fault: 'client' })
    await expect(
      kms.send(
        new SignCommand({
          KeyId: meta.KeyId,
          Message: new Uint8Array(32),
          MessageType: 'DIGEST',
          SigningAlgorithm: 'ECDSA_SHA_384',
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidKeyUsageException)
    await expect(
      kms.send(new CreateKeyCommand({ KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' })),
    ).rejects.toBeInstanceOf(UnsupportedOperationException)
    // KMS models ValidationException as a common error: the SDK's base exception class, by name
    const invalid = await kms.send(new CreateKeyCommand({ KeySpec: 'ECC_SECG_P256K1' })).catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(KMSServiceException)
    expect(invalid).toMatchObject({ name: 'ValidationException' })
    await expect(kms.send(new ListKeysCommand({ Marker: 'x' }))).rejects.toBeInstanceOf(InvalidMarkerException)
  })

  it('requires a signed request and the JSON 1.1 protocol', async () => {
    const post = (headers: Record<string, string>, body = '{}') => fetch(server.url, { method: 'POST', headers, body })
    const unsigned = await post({
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'TrentService.ListKeys',
    })
    expect(unsigned.status).toBe(400)
    expect(await unsigned.json()).toMatchObject({ __type: 'MissingAuthenticationTokenException' })

    const signed = { 'content-type': 'application/x-amz-json-1.1', authorization: 'AWS4-HMAC-SHA256 Credential=x' }
    const unknown = await post({ ...signed, 'x-amz-target': 'TrentService.Decrypt' })
    expect(await unknown.json()).toMatchObject({ __type: 'UnsupportedOperationException' })
    const badJson = await post({ ...signed, 'x-amz-target': 'TrentService.ListKeys' }, '{nope')
    expect(badJson.status).toBe(400)
    expect(await badJson.json()).toMatchObject({ __type: 'SerializationException' })
    const ok = await post({ ...signed, 'x-amz-target': 'TrentService.ListKeys' })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toBe('application/x-amz-json-1.1')
  })

  it('keeps keys in keys.json (mode 0600) across a restart', async () => {
    const meta = await createKey()
    const address = await getKmsAddressOrThrow(kms, { keyId: meta.KeyId ?? '' })
    const file = path.join(dir, 'keys.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8')).toContain(meta.KeyId)

    const again = await startKmsServer({ dataDir: dir })
    const kms2 = createKmsClient({ region: 'us-east-1', endpoint: again.url, env: {} })
    try {
      expect(await getKmsAddressOrThrow(kms2, { keyId: meta.KeyId ?? '' })).toBe(address)
    } finally {
      kms2.destroy()
      await again.stop()
    }
  })
})

describe('kmsServerMain as its own process', () => {
  it('prints KMS_ENDPOINT when ready and exits cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mintdesk-kms-main-'))
    const tsx = path.join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx')
    const child = spawn(tsx, [path.join(import.meta.dirname, 'kmsServerMain.ts'), '--data-dir', dir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const endpoint = await new Promise<string>((resolve, reject) => {
        lines.on('line', (line) => {
          const m = /^KMS_ENDPOINT=(http:\/\/127\.0\.0\.1:\d+)$/.exec(line)
          if (m) resolve(m[1])
        })
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)))
      })
      const kms = createKmsClient({ region: 'us-east-1', endpoint, env: {} })
      const created = await kms.send(new CreateKeyCommand({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' }))
      expect(created.KeyMetadata?.KeyId).toBeTruthy()
      kms.destroy()

      const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      child.kill('SIGTERM')
      expect(await exit).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
