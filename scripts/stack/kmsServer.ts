import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { KmsServerStartError } from '../errors/stack'
import { handleKmsRequest } from './kms/handleKmsRequest'
import { openKeyStore } from './kms/keyStore'
import { kmsOperations } from './kms/kmsOperations'
import { type SignThrottle, throttleSign } from './kms/throttleSign'

/**
 * The local KMS endpoint of the dev stack and the tests: a node:http server on
 * 127.0.0.1 that speaks the AWS KMS JSON 1.1 protocol for the operations mintdesk uses
 * (CreateKey, DescribeKey, GetPublicKey, Sign, ListKeys) with ECC_SECG_P256K1 keys, so
 * the real @aws-sdk/client-kms client and the real DER / EIP-2 code run everywhere.
 *
 * Like real KMS it returns DER signatures and does NOT normalise s (kms/sign.ts).
 * Private keys are kept in `${dataDir}/keys.json` (mode 0600, kms/keyStore.ts) so a
 * restart keeps them. It checks that a request is signed but does not verify SigV4
 * (kms/handleKmsRequest.ts): it is a loopback-only development tool, not a security
 * boundary.
 */

export type StartKmsServerParameters = {
  dataDir: string
  /** 0 (the default) picks a free port */
  port?: number
  /** the region and account that appear in key ARNs */
  region?: string
  accountId?: string
  /**
   * Sign calls allowed per second across all keys (KMS_LOCAL_SIGN_RATE); above it the
   * answer is a ThrottlingException, as KMS at its quota. Unset: no limit.
   */
  signRate?: number | undefined
}

export type StartKmsServerReturnType = {
  /** http://127.0.0.1:PORT, the `endpoint` for createKmsClient */
  url: string
  port: number
  /** the Sign rate limit: change it while running, read how many were throttled */
  signThrottle: SignThrottle
  stop(): Promise<void>
}

export async function startKmsServer({
  dataDir,
  port = 0,
  region = 'us-east-1',
  accountId = '000000000000',
  signRate,
}: StartKmsServerParameters): Promise<StartKmsServerReturnType> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const store = openKeyStore({ keysPath: path.join(dataDir, 'keys.json') })
  const all = kmsOperations(store, { region, accountId })
  const throttled = throttleSign(all.Sign, { rate: signRate })
  const operations = { ...all, Sign: throttled.sign }

  const server = createServer((req, res) => {
    void handleKmsRequest(operations, { req, res })
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
    signThrottle: throttled.throttle,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return stopping
    },
  }
}
