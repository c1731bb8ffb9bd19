import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CreateKeyCommand, type KMSClient } from '@aws-sdk/client-kms'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBigInt, hexToBytes, keccak256, recoverAddress, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StartKmsServerReturnType, startKmsServer } from '@/scripts/stack/kmsServer'
import { DerParseError } from '@/worker/errors/kms'
import { KmsSignatureRecoveryError, KmsSignError } from '@/worker/errors/signers'
import { createKmsClient } from '@/worker/signer/createKmsClient'
import { getKmsPublicKeyOrThrow } from '@/worker/signer/getKmsPublicKeyOrThrow'
import { publicKeyToAddress } from '@/worker/signer/publicKeyToAddress'
import { SECP256K1_HALF_N } from './normalizeS'
import { signDigestWithKms } from './signDigestWithKms'

const N = secp256k1.Point.CURVE().n

/**
 * A stand-in for AWS KMS (third-party HTTP) that answers Sign with whatever DER the test
 * queues: the only way to feed a chosen high-s signature through the real SDK client.
 */
async function startKmsStub(): Promise<{ client: KMSClient; answers: Uint8Array[]; close(): Promise<void> }> {
  const answers: Uint8Array[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const sig = answers.shift()
      res.writeHead(sig ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' })
      res.end(
        JSON.stringify(
          sig
            ? { KeyId: 'stub', SigningAlgorithm: 'ECDSA_SHA_256', Signature: Buffer.from(sig).toString('base64') }
            : { __type: 'ValidationException', message: 'no answer queued' },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo // a TCP server
  const client = createKmsClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, env: {} })
  return {
    client,
    answers,
    close: async () => {
      client.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe('signDigestWithKms, KMS answering a chosen signature', () => {
  const sk = secp256k1.utils.randomSecretKey()
  const publicKey = bytesToHex(secp256k1.getPublicKey(sk, false))
  const address = publicKeyToAddress(publicKey)
  let stub: Awaited<ReturnType<typeof startKmsStub>>
  beforeAll(async () => {
    stub = await startKmsStub()
  })
  afterAll(() => stub.close())

  it('turns a HIGH-s KMS answer into a low-s signature that recovers to the address', async () => {
    for (let i = 0; i < 4; i++) {
      const digest = keccak256(toHex(`mint ${i}`))
      const low = secp256k1.Signature.fromBytes(secp256k1.sign(hexToBytes(digest), sk, { prehash: false }))
      const high = new secp256k1.Signature(low.r, N - low.s)
      expect(high.s > SECP256K1_HALF_N).toBe(true)
      stub.answers.push(high.toBytes('der'))

      const sig = await signDigestWithKms(stub.client, { keyId: 'stub', digest, publicKey })
      expect(hexToBigInt(sig.s) <= SECP256K1_HALF_N).toBe(true)
      expect(hexToBigInt(sig.s)).toBe(low.s)
      expect(hexToBigInt(sig.r)).toBe(low.r)
      expect(await recoverAddress({ hash: digest, signature: sig })).toBe(address)
    }
  })

  it('passes a low-s answer through with the right recovery id', async () => {
    const digest = keccak256(toHex('low'))
    const recovered = secp256k1.Signature.fromBytes(
      secp256k1.sign(hexToBytes(digest), sk, { prehash: false, format: 'recovered' }),
      'recovered',
    )
    stub.answers.push(recovered.toBytes('der'))
    const sig = await signDigestWithKms(stub.client, { keyId: 'stub', digest, publicKey })
    expect(sig.yParity).toBe(recovered.recovery)
    expect(await recoverAddress({ hash: digest, signature: sig })).toBe(address)
  })

  it('fails with KmsSignatureRecoveryError when the signature belongs to another key', async () => {
    const digest = keccak256(toHex('other'))
    const other = secp256k1.utils.randomSecretKey()
    stub.answers.push(secp256k1.sign(hexToBytes(digest), other, { prehash: false, format: 'der' }))
    await expect(signDigestWithKms(stub.client, { keyId: 'stub', digest, publicKey })).rejects.toBeInstanceOf(
      KmsSignatureRecoveryError,
    )
  })

  it('fails with KmsSignError (cause DerParseError) on a malformed DER answer', async () => {
    stub.answers.push(new Uint8Array([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]))
    const err = await signDigestWithKms(stub.client, { keyId: 'stub', digest: keccak256('0x01'), publicKey }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(KmsSignError)
    expect((err as Error).cause).toBeInstanceOf(DerParseError)
  })

  it('refuses a digest that is not 32 bytes, before calling KMS', async () => {
    await expect(signDigestWithKms(stub.client, { keyId: 'stub', digest: '0x1234', publicKey })).rejects.toThrow(
      /32 bytes/,
    )
  })
})

describe('signDigestWithKms, the local KMS endpoint (high-s about half the time)', () => {
  let dir: string
  let server: StartKmsServerReturnType
  let kms: KMSClient
  const raw: Uint8Array[] = []

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mintdesk-sign-'))
    server = await startKmsServer({ dataDir: dir })
    kms = createKmsClient({ region: 'us-east-1', endpoint: server.url, env: {} })
    // record what KMS itself answered, before our code touches it
    kms.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args)
        const output = result.output as { Signature?: Uint8Array }
        if (output.Signature) raw.push(output.Signature)
        return result
      },
      { step: 'initialize', name: 'recordKmsSignatures' },
    )
  })
  afterAll(async () => {
    kms.destroy()
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('always returns low-s signatures that recover to the key address, whatever KMS answered', async () => {
    const created = await kms.send(new CreateKeyCommand({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' }))
    const keyId = created.KeyMetadata?.KeyId ?? ''
    const publicKey = await getKmsPublicKeyOrThrow(kms, { keyId })
    const address = publicKeyToAddress(publicKey)
    // sign until KMS has answered both forms at least once (2^-63 chance of needing all 64)
    for (let i = 0; i < 64; i++) {
      const digest = keccak256(toHex(`digest ${i}`))
      const sig = await signDigestWithKms(kms, { keyId, digest, publicKey })
      expect(hexToBigInt(sig.s) <= SECP256K1_HALF_N).toBe(true)
      expect(await recoverAddress({ hash: digest, signature: sig })).toBe(address)
      const kinds = new Set(raw.map((der) => secp256k1.Signature.fromBytes(der, 'der').hasHighS()))
      if (i >= 7 && kinds.size === 2) break
    }
    const highS = raw.filter((der) => secp256k1.Signature.fromBytes(der, 'der').hasHighS()).length
    expect(highS).toBeGreaterThan(0)
    expect(highS).toBeLessThan(raw.length)
    expect(bytesToHex(raw[0])).toMatch(/^0x30/)
  })
})
