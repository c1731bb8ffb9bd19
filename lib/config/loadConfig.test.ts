import { describe, expect, it } from 'vitest'
import { ConfigError } from '@/lib/errors/config'
import { DEV_AUTH_SECRET, DEV_METRICS_TOKEN, loadConfig } from './loadConfig'

const base = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' }
const worker = {
  ...base,
  RPC_URL: 'http://127.0.0.1:8545',
  TOKEN_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  MINTER_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  KMS_KEY_IDS: 'a, b',
}

/** production connects each process as its own database role (lib/config/checkDatabaseRole.ts) */
const asWebRole = { DATABASE_URL: 'postgres://mintdesk_web:p@127.0.0.1:5432/db' }
const asWorkerRole = { DATABASE_URL: 'postgres://mintdesk_worker:p@127.0.0.1:5432/db' }
/** production workers need the fee ceiling (issue 13) */
const feeCeiling = { MAX_FEE_PER_GAS: '200000000000' }

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('parses the worker settings with defaults', () => {
    const c = loadConfig({ env: worker, role: 'worker' })
    expect(c.kmsKeyIds).toEqual(['a', 'b'])
    expect(c.confirmations).toBe(1)
    expect(c.worker.maxAttempts).toBe(5)
    expect(c.production).toBe(false)
    expect(c.lowBalanceWei).toBe(10n ** 17n)
  })

  it('TOKEN_DEPLOY_BLOCK is where the chain followers start: block 0 when unset, a decimal block number', () => {
    expect(loadConfig({ env: worker, role: 'worker' }).tokenDeployBlock).toBe(0n)
    expect(loadConfig({ env: { ...worker, TOKEN_DEPLOY_BLOCK: '19876543' }, role: 'worker' }).tokenDeployBlock).toBe(
      19_876_543n,
    )
    expect(
      errorOf(() => loadConfig({ env: { ...worker, TOKEN_DEPLOY_BLOCK: '0x12' }, role: 'worker' })).message,
    ).toMatch(/TOKEN_DEPLOY_BLOCK is a block number/)
  })

  it('accepts a single KMS_KEY_ID', () => {
    expect(
      loadConfig({
        env: {
          ...base,
          RPC_URL: worker.RPC_URL,
          TOKEN_ADDRESS: worker.TOKEN_ADDRESS,
          MINTER_ADDRESS: worker.MINTER_ADDRESS,
          KMS_KEY_ID: 'k',
        },
        role: 'worker',
      }).kmsKeyIds,
    ).toEqual(['k'])
  })

  it('RPC_URLS gives several endpoints in rank order, RPC_URL one; RPC_URLS wins when both are set', () => {
    const one = loadConfig({ env: worker, role: 'worker' })
    expect([one.rpcUrl, one.rpcUrls]).toEqual(['http://127.0.0.1:8545', ['http://127.0.0.1:8545']])
    const { RPC_URL: _, ...noUrl } = worker
    const several = loadConfig({
      env: { ...noUrl, RPC_URLS: 'http://127.0.0.1:9001, https://rpc.example.com/v2/key' },
      role: 'worker',
    })
    expect(several.rpcUrls).toEqual(['http://127.0.0.1:9001', 'https://rpc.example.com/v2/key'])
    expect(several.rpcUrl).toBe('http://127.0.0.1:9001')
    expect(several.rpcHealthMs).toBe(2_000)
    expect(several.rpcMaxLagBlocks).toBe(3)
    expect(loadConfig({ env: { ...worker, RPC_URLS: 'http://127.0.0.1:9001' }, role: 'worker' }).rpcUrls).toEqual([
      'http://127.0.0.1:9001',
    ])
    expect(
      errorOf(() => loadConfig({ env: { ...noUrl, RPC_URLS: 'http://a:1,nope' }, role: 'worker' })).variables,
    ).toEqual(['RPC_URLS'])
    expect(
      errorOf(() => loadConfig({ env: { ...noUrl, RPC_URLS: 'http://a:1,http://a:1' }, role: 'worker' })).variables,
    ).toEqual(['RPC_URLS'])
  })

  it('names each missing variable', () => {
    expect(errorOf(() => loadConfig({ env: {}, role: 'web' })).variables).toContain('DATABASE_URL')
    expect(errorOf(() => loadConfig({ env: base, role: 'worker' })).variables).toEqual([
      'RPC_URL',
      'TOKEN_ADDRESS',
      'MINTER_ADDRESS',
      'KMS_KEY_IDS',
    ])
  })

  it('uses dev defaults only outside production', () => {
    const dev = loadConfig({ env: base, role: 'web' })
    expect(dev.authSecret).toBe(DEV_AUTH_SECRET)
    expect(dev.devPasswords?.staff).toBe('staff-dev-password')
  })

  it('MINTER_ADDRESS: required by the worker, and by a production web', () => {
    expect(loadConfig({ env: { ...base, MINTER_ADDRESS: `0x${'ab'.repeat(20)}` }, role: 'web' }).minterAddress).toBe(
      `0x${'ab'.repeat(20)}`,
    )
    expect(() => loadConfig({ env: { ...base, MINTER_ADDRESS: '0x12' }, role: 'web' })).toThrow(/MINTER_ADDRESS/)
  })

  it('the dev approver password: a default in dev, refused in production', () => {
    expect(loadConfig({ env: base, role: 'web' }).devPasswords?.approver).toBe('approver-dev-password')
    const env = { ...worker, ...feeCeiling, NODE_ENV: 'production', DEV_APPROVER_PASSWORD: 'approver-dev-password' }
    expect(errorOf(() => loadConfig({ env, role: 'worker' })).variables).toEqual(['DEV_APPROVER_PASSWORD'])
  })

  it('refuses to start in production without a secret', () => {
    const e = errorOf(() => loadConfig({ env: { ...base, NODE_ENV: 'production' }, role: 'web' }))
    expect(e.variables).toEqual(['AUTH_SECRET', 'APP_URL', 'METRICS_TOKEN', 'MINTER_ADDRESS'])
  })

  it('refuses dev defaults left in place in production', () => {
    const env = {
      ...worker,
      ...feeCeiling,
      NODE_ENV: 'production',
      AUTH_SECRET: DEV_AUTH_SECRET,
      KMS_ENDPOINT: 'http://127.0.0.1:4599',
      DEV_ADMIN_PASSWORD: 'x',
    }
    const e = errorOf(() => loadConfig({ env, role: 'worker' }))
    expect(e.variables).toEqual(['AUTH_SECRET', 'KMS_ENDPOINT', 'DEV_ADMIN_PASSWORD'])
    expect(e.message).toContain('KMS_ENDPOINT')
  })

  it('MINTDESK_ALLOW_LOOPBACK_KMS=1 lifts the loopback KMS_ENDPOINT check and nothing else', () => {
    const env = {
      ...worker,
      ...asWorkerRole,
      ...feeCeiling,
      NODE_ENV: 'production',
      KMS_ENDPOINT: 'http://127.0.0.1:4599',
      MINTDESK_ALLOW_LOOPBACK_KMS: '1',
    }
    const c = loadConfig({ env, role: 'worker' })
    expect(c.production).toBe(true)
    expect(c.kmsEndpoint).toBe('http://127.0.0.1:4599')
    expect(
      errorOf(() => loadConfig({ env: { ...env, MINTDESK_ALLOW_LOOPBACK_KMS: 'true' }, role: 'worker' })).variables,
    ).toEqual(['KMS_ENDPOINT'])
    const e = errorOf(() =>
      loadConfig({
        env: { ...env, AWS_ACCESS_KEY_ID: 'mintdesk-local', DEV_STAFF_PASSWORD: 'x', AUTH_SECRET: DEV_AUTH_SECRET },
        role: 'worker',
      }),
    )
    expect(e.variables).toEqual(['AUTH_SECRET', 'AWS_ACCESS_KEY_ID', 'DEV_STAFF_PASSWORD'])
  })

  it('MINTDESK_DEV=1 makes a production build run as dev', () => {
    const c = loadConfig({ env: { ...base, NODE_ENV: 'production', MINTDESK_DEV: '1' }, role: 'web' })
    expect(c.production).toBe(false)
  })

  describe('dev mode with NODE_ENV=production (issue 13)', () => {
    const devProd = { NODE_ENV: 'production', MINTDESK_DEV: '1' }
    it.each([
      'postgres://u:p@127.0.0.1:5432/db',
      'postgres://u:p@localhost/db',
      'postgres://u:p@[::1]:5432/db',
      'postgres:///db?host=/var/run/postgresql',
    ])('is allowed on a database on this machine: %s', (url) => {
      expect(loadConfig({ env: { ...devProd, DATABASE_URL: url }, role: 'web' }).production).toBe(false)
    })
    it.each([
      'postgres://u:p@mintdesk.abc123.eu-west-1.rds.amazonaws.com:5432/db',
      'postgres://u:p@10.0.0.5/db',
      'postgres://u:p@127.0.0.1.example.com/db',
      'postgres://u:p@localhost/db?host=db.internal',
    ])('is refused on a remote database, naming MINTDESK_DEV and DATABASE_URL: %s', (url) => {
      for (const role of ['web', 'worker', 'tool'] as const) {
        const e = errorOf(() => loadConfig({ env: { ...worker, ...devProd, DATABASE_URL: url }, role }))
        expect(e.variables).toEqual(['MINTDESK_DEV', 'DATABASE_URL'])
        expect(e.message).toContain('MINTDESK_DEV')
        expect(e.message).not.toContain('u:p')
      }
    })
    it('a remote database stays fine in dev without NODE_ENV=production, and in real production', () => {
      const url = 'postgres://u:p@db.internal:5432/db'
      expect(loadConfig({ env: { DATABASE_URL: url, MINTDESK_DEV: '1' }, role: 'web' }).production).toBe(false)
      expect(loadConfig({ env: { DATABASE_URL: url, NODE_ENV: 'production' } }).production).toBe(true)
    })
  })

  describe('production secrets (issue 13)', () => {
    const strong = 'x'.repeat(32)
    const web = {
      ...base,
      ...asWebRole,
      NODE_ENV: 'production',
      APP_URL: 'https://mintdesk.example',
      MINTER_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      AUTH_SECRET: strong,
      METRICS_TOKEN: strong,
    }
    it('accepts secrets of 32 characters or more', () => {
      expect(loadConfig({ env: { ...web, OIDC_CLIENT_SECRET: strong }, role: 'web' }).production).toBe(true)
    })
    it.each(['AUTH_SECRET', 'METRICS_TOKEN', 'OIDC_CLIENT_SECRET'])(
      'refuses a %s shorter than 32 characters, naming it',
      (name) => {
        const e = errorOf(() => loadConfig({ env: { ...web, [name]: 'x'.repeat(31) }, role: 'web' }))
        expect(e.variables).toEqual([name])
        expect(e.message).toContain(name)
        expect(e.message).not.toContain('x'.repeat(31))
      },
    )
    it('refuses the dev METRICS_TOKEN (and the dev AUTH_SECRET) as dev defaults', () => {
      const e = errorOf(() =>
        loadConfig({ env: { ...web, AUTH_SECRET: DEV_AUTH_SECRET, METRICS_TOKEN: DEV_METRICS_TOKEN }, role: 'web' }),
      )
      expect(e.variables).toEqual(['AUTH_SECRET', 'METRICS_TOKEN'])
    })
    it('checks the worker too, and leaves dev mode alone', () => {
      const e = errorOf(() =>
        loadConfig({ env: { ...worker, ...feeCeiling, NODE_ENV: 'production', AUTH_SECRET: 'short' }, role: 'worker' }),
      )
      expect(e.variables).toEqual(['AUTH_SECRET'])
      expect(
        loadConfig({ env: { ...base, AUTH_SECRET: 'short', METRICS_TOKEN: 'short' }, role: 'web' }).authSecret,
      ).toBe('short')
    })
  })

  it('reads the fee ceiling in wei (issue 13), none by default', () => {
    expect(loadConfig({ env: worker, role: 'worker' }).worker.feeCeiling).toEqual({
      maxFeePerGas: undefined,
      maxPriorityFeePerGas: undefined,
    })
    const c = loadConfig({
      env: { ...worker, MAX_FEE_PER_GAS: '200000000000', MAX_PRIORITY_FEE: '2000000000', FEE_CAPPED_RETRY_MS: '5000' },
      role: 'worker',
    })
    expect(c.worker.feeCeiling).toEqual({ maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n })
    expect(c.worker.feeCappedRetryMs).toBe(5000)
    for (const bad of ['1.5', '-1', '20 gwei', '0x10']) {
      expect(
        errorOf(() => loadConfig({ env: { ...worker, MAX_FEE_PER_GAS: bad, MAX_PRIORITY_FEE: bad }, role: 'worker' }))
          .variables,
      ).toEqual(['MAX_FEE_PER_GAS', 'MAX_PRIORITY_FEE'])
    }
  })

  it('refuses a production worker without the fee ceiling MAX_FEE_PER_GAS, naming it (fails closed)', () => {
    const prod = { ...worker, ...asWorkerRole, NODE_ENV: 'production' }
    const e = errorOf(() => loadConfig({ env: prod, role: 'worker' }))
    expect(e.variables).toEqual(['MAX_FEE_PER_GAS'])
    expect(e.message).toContain('MAX_FEE_PER_GAS')
    // a priority cap alone is no ceiling on what a transaction may cost
    expect(
      errorOf(() => loadConfig({ env: { ...prod, MAX_PRIORITY_FEE: '2000000000' }, role: 'worker' })).variables,
    ).toEqual(['MAX_FEE_PER_GAS'])
    expect(loadConfig({ env: { ...prod, ...feeCeiling }, role: 'worker' }).worker.feeCeiling.maxFeePerGas).toBe(
      200_000_000_000n,
    )
    // the web signs nothing; dev and tests may run without a ceiling
    expect(loadConfig({ env: worker, role: 'worker' }).worker.feeCeiling.maxFeePerGas).toBeUndefined()
    expect(loadConfig({ env: { ...prod, MINTDESK_DEV: '1' }, role: 'worker' }).production).toBe(false)
  })

  it('rejects malformed values', () => {
    expect(errorOf(() => loadConfig({ env: { ...base, TOKEN_ADDRESS: '0x12' } })).variables).toEqual(['TOKEN_ADDRESS'])
    expect(errorOf(() => loadConfig({ env: { ...base, CONFIRMATIONS: '0' } })).variables).toEqual(['CONFIRMATIONS'])
  })

  describe('production database roles (issue 13, invariant 7)', () => {
    const strong = 'x'.repeat(32)
    const web = {
      NODE_ENV: 'production',
      APP_URL: 'https://mintdesk.example',
      MINTER_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      AUTH_SECRET: strong,
      METRICS_TOKEN: strong,
    }
    const prodWorker = { ...worker, ...feeCeiling, NODE_ENV: 'production' }
    it('accepts each process as its own role, the user from the URL or PGUSER', () => {
      expect(loadConfig({ env: { ...web, ...asWebRole }, role: 'web' }).production).toBe(true)
      expect(loadConfig({ env: { ...prodWorker, ...asWorkerRole }, role: 'worker' }).production).toBe(true)
      expect(
        loadConfig({
          env: { ...web, DATABASE_URL: 'postgres://db.internal/mintdesk', PGUSER: 'mintdesk_web' },
          role: 'web',
        }).production,
      ).toBe(true)
    })
    it.each([
      ['web', 'postgres://mintdesk:secret@db.internal/mintdesk'],
      ['web', 'postgres://postgres@db.internal/mintdesk'],
      ['web', 'postgres://mintdesk_worker:secret@db.internal/mintdesk'],
      ['worker', 'postgres://mintdesk_web:secret@db.internal/mintdesk'],
      ['worker', 'postgres://db.internal/mintdesk'],
    ] as const)('refuses the %s as another user (%s), naming DATABASE_URL and never the password', (role, url) => {
      const env = role === 'web' ? { ...web, DATABASE_URL: url } : { ...prodWorker, DATABASE_URL: url }
      const e = errorOf(() => loadConfig({ env, role }))
      expect(e.variables).toEqual(['DATABASE_URL'])
      expect(e.message).toContain(`mintdesk_${role}`)
      expect(e.message).not.toContain('secret')
    })
    it('leaves dev mode and the tools alone', () => {
      expect(loadConfig({ env: { ...base, MINTDESK_DEV: '1', NODE_ENV: 'production' }, role: 'web' }).production).toBe(
        false,
      )
      expect(loadConfig({ env: { ...base, NODE_ENV: 'production' }, role: 'tool' }).production).toBe(true)
    })
  })
})
