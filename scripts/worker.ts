// npm run worker: one more worker process joining the stack that `npm start` runs (its
// .data/stack.env, as the stack's database role mintdesk_worker), or any stack given by
// the environment (variables set win).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readEnvFile } from './stack/envFile'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fromStack = readEnvFile(path.join(root, '.data', 'stack.env'))
const env: NodeJS.ProcessEnv = { ...fromStack, ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' }
// a worker connects as mintdesk_worker (the stack's WORKER_DATABASE_URL unless DATABASE_URL is
// given), and is handed neither the owner's login nor the web's
if (!process.env.DATABASE_URL && fromStack.WORKER_DATABASE_URL) env.DATABASE_URL = fromStack.WORKER_DATABASE_URL
for (const key of ['DATABASE_ADMIN_URL', 'WEB_DATABASE_URL', 'WORKER_DATABASE_URL']) delete env[key]

const child = spawn(
  process.execPath,
  [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'worker/runtime/main.ts'],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
