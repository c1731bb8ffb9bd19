import { spawn } from 'node:child_process'
import path from 'node:path'
import { type ManagedChild, stopPid } from '../../scripts/stack/processes'

export type StartKmsProcessParameters = { root: string; dataDir: string; timeoutMs?: number }
export type StartKmsProcessReturnType = { url: string; child: ManagedChild }

/**
 * The local KMS endpoint in its own process (scripts/stack/kmsServerMain.ts) rather than
 * inside the bench process as `npm start` runs it: the bench's own load generators
 * would otherwise share an event loop with every Sign call the worker makes, and real
 * KMS is a remote service anyway.
 */
export async function startKmsProcess({
  root,
  dataDir,
  timeoutMs = 30_000,
}: StartKmsProcessParameters): Promise<StartKmsProcessReturnType> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts', 'stack', 'kmsServerMain.ts'), '--data-dir', dataDir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  )
  const managed: ManagedChild = {
    name: 'kms',
    child,
    stop: async (graceMs = 5_000) => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      await stopPid(child.pid, 'SIGTERM', graceMs)
      await exited
    },
  }
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(
      () => reject(new Error(`the KMS endpoint did not start within ${timeoutMs} ms`)),
      timeoutMs,
    )
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const m = /KMS_ENDPOINT=(\S+)/.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the KMS endpoint exited with code ${code}`))
    })
  })
  return { url, child: managed }
}
