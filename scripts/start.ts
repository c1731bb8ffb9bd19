// npm start: the whole system on embedded defaults (scripts/stack/startStack.ts).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeVersionNotice, QUIET_NODE_VERSION_ENV } from './stack/nodeVersionNotice'
import { startStack } from './stack/startStack'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const started = Date.now()
// this process's own AWS SDK clients (the local KMS endpoint's key) say nothing of Node: the banner does, once
Object.assign(process.env, QUIET_NODE_VERSION_ENV)

const stack = await startStack({
  root,
  dataDir: path.join(root, '.data'),
  env: process.env,
  restartWorkers: true,
}).catch((err: unknown) => {
  console.error(`[stack] failed to start: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})

console.log(`
  mintdesk is up: ${stack.url}   (in ${Math.round((Date.now() - started) / 1000)} s)

  dev logins (dev mode only):
    staff@mintdesk.local     /  ${stack.env.DEV_STAFF_PASSWORD}
    approver@mintdesk.local  /  ${stack.env.DEV_APPROVER_PASSWORD}
    approver2@mintdesk.local /  ${stack.env.DEV_APPROVER2_PASSWORD}
    admin@mintdesk.local     /  ${stack.env.DEV_ADMIN_PASSWORD}
    admin2@mintdesk.local    /  ${stack.env.DEV_ADMIN2_PASSWORD}
    auditor@mintdesk.local   /  ${stack.env.DEV_AUDITOR_PASSWORD}

  live settings: .data/stack.env     one more worker: npm run worker
  Ctrl-C stops everything (worker, web, anvil, KMS endpoint, Postgres).

  ${nodeVersionNotice({ nodeVersion: process.version, dockerfile: readFileSync(path.join(root, 'Dockerfile'), 'utf8') })}
`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    console.log(`\n[stack] ${signal}: stopping`)
    void stack.stop().then(() => process.exit(0))
  })
}
