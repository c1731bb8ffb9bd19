import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { webRun, workerRun } from './stackRuns'

describe('stackRuns: how the local stack starts its web and its workers', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-runs-'))
  mkdirSync(path.join(root, '.next/standalone'), { recursive: true })
  writeFileSync(path.join(root, '.next/standalone/server.js'), '')
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  // as the stack gives its children: NODE_ENV production
  const childEnv = { NODE_ENV: 'production' as const }
  const release = { cwd: '/rel/web', args: ['server.js'], env: { NODE_OPTIONS: '--max-old-space-size=160' } }

  it("the web is the standalone server (npm start, the tests) or the release's copy (the bench), never next start", () => {
    expect(webRun({ root, port: 3100, childEnv })).toMatchObject({
      cwd: path.join(root, '.next/standalone'),
      args: ['server.js'],
      env: { HOSTNAME: '127.0.0.1', PORT: '3100' },
      cmd: 'server.js',
    })
    expect(
      webRun({ root, port: 3100, release, childEnv: { ...childEnv, NODE_OPTIONS: '--enable-source-maps' } }),
    ).toEqual({
      cwd: '/rel/web',
      args: ['server.js'],
      env: { NODE_OPTIONS: '--max-old-space-size=160 --enable-source-maps' },
      cmd: 'server.js',
    })
  })

  it('a worker runs the sources under tsx, or the release bundle', () => {
    const local = workerRun({ root, childEnv })
    expect(local.args).toEqual([path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'worker/runtime/main.ts'])
    expect(local.cmd).toBe('worker/runtime/main.ts')
    const released = workerRun({
      root,
      childEnv,
      release: { ...release, cwd: '/rel/worker', args: ['worker.mjs'] },
    })
    expect(released).toMatchObject({ cwd: '/rel/worker', args: ['worker.mjs'], cmd: 'worker.mjs' })
  })
})
