// npm run audit:verify: cli/audit-verify.ts against the stack that `npm start` runs (its .data/stack.env, as the
// worker's database role, which reads audit_log), or the database DATABASE_URL names. Arguments pass through
// (`npm run audit:verify -- --file audit.jsonl`).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readEnvFile } from './stack/envFile'
import { QUIET_NODE_VERSION_ENV } from './stack/nodeVersionNotice'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fromStack = readEnvFile(path.join(root, '.data', 'stack.env'))
const env: NodeJS.ProcessEnv = { ...QUIET_NODE_VERSION_ENV, ...process.env }
if (!env.DATABASE_URL && fromStack.WORKER_DATABASE_URL) env.DATABASE_URL = fromStack.WORKER_DATABASE_URL
const run = spawnSync(process.execPath, ['--import', 'tsx', 'cli/audit-verify.ts', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
})
process.exitCode = run.status ?? 1
