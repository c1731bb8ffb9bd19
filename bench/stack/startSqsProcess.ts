import { spawn } from 'node:child_process'
import path from 'node:path'
import { type ManagedChild, stopPid } from '../../scripts/stack/processes'

export type StartSqsProcessParameters = { root: string; timeoutMs?: number }
export type StartSqsProcessReturnType = {
  env: { SQS_ENDPOINT: string; SQS_QUEUE_URL: string; SQS_DLQ_URL: string }
  child: ManagedChild
}

/**
 * The embedded SQS endpoint (scripts/stack/sqs.ts) in its own process rather than inside
 * the bench process as `npm start` runs it: the SQS row charges the endpoint's CPU to the
 * orders like any other process of the stack (SQS is a remote service in production, but
 * here it shares the machine's two cores), and the bench's load generator stays apart.
 * Given to startStack as SQS_ENDPOINT / SQS_QUEUE_URL / SQS_DLQ_URL, which then starts none.
 */
export async function startSqsProcess({
  root,
  timeoutMs = 30_000,
}: StartSqsProcessParameters): Promise<StartSqsProcessReturnType> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'stack', 'sqsServerMain.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  })
  const managed: ManagedChild = {
    name: 'sqs',
    child,
    stop: async (graceMs = 5_000) => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      await stopPid(child.pid, 'SIGTERM', graceMs)
      await exited
    },
  }
  const env = await new Promise<StartSqsProcessReturnType['env']>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(
      () => reject(new Error(`the SQS endpoint did not start within ${timeoutMs} ms`)),
      timeoutMs,
    )
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const m = /SQS_ENDPOINT=(\S+) SQS_QUEUE_URL=(\S+) SQS_DLQ_URL=(\S+)/.exec(out)
      if (m?.[1] && m[2] && m[3]) {
        clearTimeout(timer)
        resolve({ SQS_ENDPOINT: m[1], SQS_QUEUE_URL: m[2], SQS_DLQ_URL: m[3] })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the SQS endpoint exited with code ${code}`))
    })
  })
  return { env, child: managed }
}
