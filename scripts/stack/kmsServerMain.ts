// The local KMS endpoint as its own process:
//   tsx scripts/stack/kmsServerMain.ts --data-dir .data/kms [--port 0] [--sign-rate N]
// (--sign-rate, or KMS_LOCAL_SIGN_RATE: N Sign calls per second, the rest ThrottlingException)
// Prints `KMS_ENDPOINT=http://127.0.0.1:N` on stdout once it listens; SIGTERM or SIGINT
// stops it.
import { parseArgs } from 'node:util'
import { startKmsServer } from './kmsServer'

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string', default: '0' },
    region: { type: 'string', default: 'us-east-1' },
    'sign-rate': { type: 'string', default: process.env.KMS_LOCAL_SIGN_RATE ?? '' },
  },
  strict: true,
})

const dataDir = values['data-dir']
const port = Number(values.port)
const signRate = values['sign-rate'] ? Number(values['sign-rate']) : undefined
if (!dataDir || !Number.isInteger(port) || port < 0 || port > 65535 || (signRate !== undefined && !(signRate > 0))) {
  console.error('usage: tsx scripts/stack/kmsServerMain.ts --data-dir DIR [--port N] [--region R] [--sign-rate N]')
  process.exit(2)
}

const server = await startKmsServer({ dataDir, port, region: values.region, signRate })
process.stdout.write(`KMS_ENDPOINT=${server.url}\n`)

let stopping = false
const shutdown = (signal: NodeJS.Signals) => {
  if (stopping) return
  stopping = true
  server.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`[kms] error while stopping on ${signal}`, err)
      process.exit(1)
    },
  )
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
