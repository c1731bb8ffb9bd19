import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/** Runs tests/fixtures/failpointKill.ts; its stdout and how it ended. */
function runToFailpoint(): Promise<{ stdout: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/failpointKill.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.once('error', reject)
    child.once('close', (_code, signal) => resolve({ stdout, signal }))
  })
}

describe('a worker killed at a failpoint', () => {
  it('has written the failpoint line before it dies, every time (a crash test looks for it)', async () => {
    for (let run = 0; run < 5; run++) {
      const { stdout, signal } = await runToFailpoint()
      expect(signal).toBe('SIGKILL')
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { failpoint?: string })
      expect(
        lines.filter((l) => l.failpoint === 'after_broadcast'),
        `run ${run}`,
      ).toHaveLength(1)
    }
  }, 60_000)
})
