import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { freePort } from '../../scripts/stack/freePort'
import { QUIET_NODE_VERSION_ENV } from '../../scripts/stack/nodeVersionNotice'
import { startStack } from '../../scripts/stack/startStack'

/**
 * Boots the whole stack (embedded Postgres, anvil, KMS endpoint, web production build,
 * one worker) on a fresh data folder and a free port, for the browser tests. Anything
 * the developer's shell points elsewhere (DATABASE_URL, RPC_URL, ...) is ignored here.
 */
export default async function globalSetup() {
  const root = path.resolve(import.meta.dirname, '..', '..')
  // this process's AWS SDK clients (the local KMS key) leave the Node notice out, as npm start's do
  Object.assign(process.env, QUIET_NODE_VERSION_ENV)
  // one folder per run: two runs at once (two developers' shells) never share or wipe one stack
  const dataDir = path.join(root, '.data', `e2e-${process.pid}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const port = await freePort()
  const stack = await startStack({
    root,
    dataDir,
    env: {},
    port,
    blockTime: 0,
    childLogFile: path.join(dataDir, 'children.log'),
    log: () => {},
  })
  process.env.E2E_BASE_URL = stack.url
  process.env.E2E_STACK_ENV = JSON.stringify(stack.env)
  process.env.E2E_DATA_DIR = dataDir
  return async () => {
    await stack.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
