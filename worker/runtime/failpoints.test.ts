import { describe, expect, it } from 'vitest'
import { loadConfig } from '@/lib/config/loadConfig'

const env = {
  DATABASE_URL: 'postgres://mintdesk_worker@localhost/x',
  RPC_URL: 'https://rpc.example.com',
  TOKEN_ADDRESS: `0x${'11'.repeat(20)}`,
  MINTER_ADDRESS: `0x${'12'.repeat(20)}`,
  KMS_KEY_IDS: 'k1',
  MINTDESK_FAILPOINTS: 'after_sign, after_broadcast',
}

describe('failpoints (MINTDESK_FAILPOINTS)', () => {
  it('are read in development and test runs', () => {
    expect(loadConfig({ env: { ...env, NODE_ENV: 'test' }, role: 'worker' }).worker.failpoints).toEqual([
      'after_sign',
      'after_broadcast',
    ])
    expect(
      loadConfig({ env: { ...env, NODE_ENV: 'production', MINTDESK_DEV: '1' }, role: 'worker' }).worker.failpoints,
    ).toHaveLength(2)
  })
  it('are ignored in production mode: a production worker never kills itself on purpose', () => {
    const production = { ...env, NODE_ENV: 'production', MAX_FEE_PER_GAS: '200000000000' }
    expect(loadConfig({ env: production, role: 'worker' }).worker.failpoints).toEqual([])
  })
})
