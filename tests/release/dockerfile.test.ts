import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { WORKER_ENTRIES } from '@/scripts/build-release'
import { dockerTarget, readDockerfile } from './dockerfile'

// The Dockerfile cannot be built here (no Docker engine on this machine): these checks
// and tests/release/standalone.int.test.ts (which copies and runs what the stages copy
// and run) are how it is held to account.
const root = path.resolve(import.meta.dirname, '..', '..')
const stages = readDockerfile(root)
const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8')

describe('Dockerfile', () => {
  it('has deps -> build -> web / worker, all on a Node LTS (22 or 24) slim image pinned by digest', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'web', 'worker'])
    const deps = stages[0]
    expect(deps?.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args))).toBe(true)
    const build = stages[1]
    expect(build?.from).toBe('deps')
    // one script builds both images' contents
    expect(build?.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args)).toEqual([
      'node node_modules/tsx/dist/cli.mjs scripts/build-release.ts',
    ])
    const nodeImage = /ARG NODE_IMAGE=(\S+)/.exec(text)?.[1]
    // a supported LTS (Node 20 leaves maintenance in April 2026), the tag for readers, the digest for the build
    expect(nodeImage).toMatch(/^node:(22|24)-(bookworm-)?slim@sha256:[0-9a-f]{64}$/)
    for (const name of ['deps', 'web', 'worker'])
      expect(stages.find((s) => s.name === name)?.from).toBe('${NODE_IMAGE}')
  })

  it.each(['web', 'worker'])(
    'the %s stage checks the RDS CA bundle against a pinned SHA-256 before using it',
    (name) => {
      expect(/^ARG RDS_CA_BUNDLE_SHA256=[0-9a-f]{64}$/m.test(text)).toBe(true)
      expect(text).toContain('echo "${RDS_CA_BUNDLE_SHA256}  /etc/ssl/certs/rds-global-bundle.pem" | sha256sum -c -')
      const steps = stages.find((s) => s.name === name)?.instructions ?? []
      const arg = steps.findIndex((i) => i.keyword === 'ARG' && i.args === 'RDS_CA_BUNDLE_SHA256')
      const add = steps.findIndex(
        (i) =>
          i.keyword === 'ADD' && i.args.includes('https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem'),
      )
      // (the reader folds runs of spaces; the Dockerfile has the two that sha256sum -c wants)
      const check = steps.findIndex(
        (i) =>
          i.keyword === 'RUN' &&
          i.args === 'echo "${RDS_CA_BUNDLE_SHA256} /etc/ssl/certs/rds-global-bundle.pem" | sha256sum -c -',
      )
      expect(arg).toBeGreaterThanOrEqual(0)
      expect(add).toBeGreaterThan(arg)
      // verified right after the download, before anything else runs in the stage
      expect(check).toBe(add + 1)
      expect(dockerTarget(stages, name).env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/rds-global-bundle.pem')
    },
  )

  it.each([
    ['web', 'dist/release/web', ['node', 'server.js']],
    ['worker', 'dist/release/worker', ['node', 'worker.mjs']],
  ])('the %s stage copies exactly %s, runs as a non-root user and has a health check', (name, folder, cmd) => {
    const t = dockerTarget(stages, name)
    expect(t.workdir).toBe('/app')
    expect(t.copiesFromBuild).toEqual([{ src: `/app/${folder}`, dest: '/app' }])
    expect(t.copiesFromContext).toEqual([])
    expect(t.user).toMatch(/^[1-9]\d{3,}:[1-9]\d{3,}$/)
    expect(t.cmd).toEqual(cmd)
    expect(t.stopSignal).toBe('SIGTERM')
    expect(t.healthcheck?.cmd).toEqual(['node', 'healthcheck.mjs'])
    expect(t.env.NODE_ENV).toBe('production')
    // no dev default baked in
    for (const key of Object.keys(t.env))
      expect(key).not.toMatch(
        /^(MINTDESK_DEV|MINTDESK_ALLOW_LOOPBACK_KMS|DEV_|AUTH_SECRET|METRICS_TOKEN|KMS_ENDPOINT|AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|DATABASE_URL)/,
      )
  })

  it("no stage decodes the bundles' source maps at start (~60 MB of live heap in the worker: decision 032)", () => {
    for (const name of ['web', 'worker'])
      expect(dockerTarget(stages, name).env.NODE_OPTIONS ?? '').not.toContain('--enable-source-maps')
  })

  it("bounds the worker's heap and malloc arenas as decision 032 measured them (the bench reads these from here)", () => {
    const env = dockerTarget(stages, 'worker').env
    expect(env.NODE_OPTIONS).toBe('--max-semi-space-size=4 --max-old-space-size=96')
    expect(env.MALLOC_ARENA_MAX).toBe('2')
  })

  it('the worker stage runs the bundles build-release makes', () => {
    expect(Object.keys(WORKER_ENTRIES).sort()).toEqual([
      'audit-verify',
      'create-user',
      'healthcheck',
      'limits',
      'migrate',
      'signers',
      'worker',
    ])
    expect(dockerTarget(stages, 'web').expose).toEqual(['3000'])
  })
})
