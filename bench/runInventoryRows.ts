// The bench's inventory rows on their own (a short run, not the whole `npm run bench`):
// the 100,000-bar list through the real route with the web's memory, then the intake
// (bars from the inventory) at the given client counts. Prints the two report sections.
//   npx tsx bench/runInventoryRows.ts [--concurrency 1,8,32] [--intake-seconds 8] [--bars 100000]
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import postgres from 'postgres'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { DEV_ADMIN_EMAIL, DEV_STAFF_EMAIL } from '../lib/auth/seedDevUsers'
import { signIn } from './http/signIn'
import { createMintBodies, stockMintBodies } from './intake/createMintBodies'
import { runIntake } from './intake/runIntake'
import { renderBarListImport, renderIntakeInventoryNote } from './report/renderInventory'
import { startBenchStack } from './stack/startBenchStack'
import { runBarListImport } from './vault/runBarListImport'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: { concurrency: { type: 'string', default: '1,8,32' }, 'intake-seconds': { type: 'string', default: '8' }, bars: { type: 'string', default: '100000' } },
  strict: true,
})
const concurrencies = (values.concurrency ?? '32').split(',').map(Number)
const started = performance.now()
const log = (line: string) => console.log(`[inventory rows ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)

const stack = await startBenchStack({ root, dataDir: path.join(root, '.data', 'bench-inventory'), signers: 1, blockTime: 1, log })
const env = (key: string) => {
  const value = stack.env[key]
  if (!value) throw new Error(`the stack has no ${key}`)
  return value
}
const sql = postgres(env('DATABASE_ADMIN_URL'), { max: 2, onnotice: () => {} })
try {
  const admin = await signIn({ baseUrl: stack.url, email: DEV_ADMIN_EMAIL, password: env('DEV_ADMIN_PASSWORD') })
  const recipients: Address[] = Array.from({ length: 16 }, () => privateKeyToAddress(generatePrivateKey()))
  const bodies = createMintBodies({ runId: `i${Date.now().toString(36)}`, recipients })
  const barListImport = await runBarListImport({ session: admin, runId: bodies.runId, bars: Number(values.bars), groups: stack.groups, log })
  await stockMintBodies(sql, bodies, log)
  const session = await signIn({ baseUrl: stack.url, email: DEV_STAFF_EMAIL, password: env('DEV_STAFF_PASSWORD') })
  const [staff] = await sql<{ id: string }[]>`select id::text as id from users where email = ${DEV_STAFF_EMAIL}`
  if (!staff) throw new Error('the dev staff user is missing')
  const intake = await runIntake({
    session,
    databaseUrl: env('DATABASE_ADMIN_URL'),
    user: { id: staff.id, email: DEV_STAFF_EMAIL },
    bodies,
    concurrencies,
    durationSec: Number(values['intake-seconds']),
    groups: stack.groups,
    log,
  })
  const out: string[] = []
  const line = (s = '') => out.push(s)
  const table = (head: string[], rows: string[][]) => {
    line(`| ${head.join(' | ')} |`)
    line(`| ${head.map(() => '---').join(' | ')} |`)
    for (const row of rows) line(`| ${row.join(' | ')} |`)
    line()
  }
  renderIntakeInventoryNote({ concurrencies, runs: intake.runs, line, table })
  renderBarListImport({ barListImport, line, table })
  console.log(out.join('\n'))
  console.log(JSON.stringify({ barListImport, intake: intake.runs.map((x) => ({ kind: x.kind, clients: x.clients, perSecond: x.result.perSecond, latency: x.result.latency, failed: x.result.failed })) }, null, 2))
} finally {
  await sql.end({ timeout: 5 })
  await stack.stop()
}
