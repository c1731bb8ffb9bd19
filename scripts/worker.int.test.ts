import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { workerEnv } from '@/tests/helpers/workerProcess'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// `npm run worker` in a terminal: Ctrl-C signals the whole foreground process group (npm, tsx, the wrapper), and
// each of them passes it on. The worker must see it once: it drains and stops, not "second signal".
describe('npm run worker', () => {
  let t: TestDatabase
  let chain: ChainFixture
  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await chain?.stop()
    await t?.drop()
  })

  it('drains on one Ctrl-C (SIGINT to its process group) and stops cleanly', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...workerEnv({ databaseUrl: t.url, chain }), NODE_ENV: 'test' }
    // a group of its own, as a terminal's foreground job
    const npm = spawn('npm', ['run', '--silent', 'worker'], { cwd: root, env, detached: true, stdio: 'pipe' })
    let out = ''
    npm.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8')
    })
    npm.stderr?.on('data', (c: Buffer) => {
      out += c.toString('utf8')
    })
    const exited = new Promise<void>((resolve) => npm.once('close', () => resolve()))
    const deadline = Date.now() + 60_000
    while (!out.includes('"worker started"')) {
      if (Date.now() > deadline) throw new Error(`the worker did not start:\n${out}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    process.kill(-(npm.pid as number), 'SIGINT')
    await exited
    // npm itself ends by the signal it got; the worker drained and stopped cleanly
    expect(out).toContain('shutting down: no new jobs, waiting for running ones')
    expect(out).toContain('"worker stopped"')
    expect(out).not.toContain('second signal')
  }, 90_000)
})
