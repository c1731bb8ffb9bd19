// npm run worker: one more worker process joining the stack that `npm start` runs (its
// .data/stack.env, as the stack's database role mintdesk_worker), or any stack given by
// the environment (variables set win).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readEnvFile } from './stack/envFile'
import { QUIET_NODE_VERSION_ENV } from './stack/nodeVersionNotice'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fromStack = readEnvFile(path.join(root, '.data', 'stack.env'))
// npm start said which Node runs what, once: the AWS SDK does not say it again
const env: NodeJS.ProcessEnv = {
  ...fromStack,
  ...QUIET_NODE_VERSION_ENV,
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? 'production',
}
// a worker connects as mintdesk_worker (the stack's WORKER_DATABASE_URL unless DATABASE_URL is
// given), and is handed neither the owner's login nor the web's
if (!process.env.DATABASE_URL && fromStack.WORKER_DATABASE_URL) env.DATABASE_URL = fromStack.WORKER_DATABASE_URL
for (const key of ['DATABASE_ADMIN_URL', 'WEB_DATABASE_URL', 'WORKER_DATABASE_URL']) delete env[key]

// `node --import tsx`, one process (tsx's CLI would run a second one and relay signals), in a process group of
// its own, so the terminal's Ctrl-C reaches it only through this wrapper
const child = spawn(process.execPath, ['--import', 'tsx', 'worker/runtime/main.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
  detached: true,
})
// one Ctrl-C reaches this wrapper more than once (from the terminal, and relayed by npm and tsx): a signal within
// a second of the one passed on is that same press, so the worker drains on the first and stops at once only on a
// second press
const DUPLICATE_WITHIN_MS = 1_000
let lastForwarded = 0
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (Date.now() - lastForwarded < DUPLICATE_WITHIN_MS) return
    lastForwarded = Date.now()
    child.kill(signal)
  })
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
