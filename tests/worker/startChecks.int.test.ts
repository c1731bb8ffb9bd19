import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '@/db/client'
import { checkSharedSettings } from '@/lib/config/checkSharedSettings'
import { loadConfig } from '@/lib/config/loadConfig'
import { ConfigError } from '@/lib/errors/config'
import { WorkerStartError } from '@/lib/errors/jobs'
import { ozToWei } from '@/lib/money/ozToWei'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { setTestMintLimits } from '@/tests/helpers/recipients'
import { createLogger } from '@/worker/runtime/logger'
import { startWorker } from '@/worker/runtime/startWorker'

// The production worker's start (security review): before it looks at the chain or its
// keys, startWorker refuses a database role holding more than db/roles/tableGrants.ts gives
// it and a MINTER_ADDRESS that is not the web's, each a ConfigError naming the
// variable; with both right it goes on to the chain (here a node of another chain id, so it
// stops there with a WorkerStartError).

describe('the production worker refuses to start on its database checks', () => {
  let t: TestDatabase
  let node: Server
  let rpcUrl: string
  const log = createLogger({ level: 'silent' })

  beforeAll(async () => {
    t = await createTestDatabase()
    // production refuses to start without mint limits (worker/runtime/requireMintLimits.ts)
    await setTestMintLimits(t.db, { maxOrderWei: ozToWei('1000'), dailyCapWei: ozToWei('10000') })
    // a node that says it is chain 1
    node = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8')
      })
      req.on('end', () => {
        // one call or a batch: every eth_chainId answered 0x1
        const calls = JSON.parse(body) as { id: number } | { id: number }[]
        const answer = (c: { id: number }) => ({ jsonrpc: '2.0', id: c.id, result: '0x1' })
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)))
      })
    })
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    rpcUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => node?.close(() => resolve()))
    await t?.drop()
  })

  const start = (extra: Record<string, string> = {}) => {
    const config = loadConfig({
      role: 'worker',
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: t.roleUrl('worker'),
        RPC_URL: rpcUrl,
        CHAIN_ID: '31337',
        TOKEN_ADDRESS: `0x${'11'.repeat(20)}`,
        KMS_KEY_IDS: 'key-1',
        MAX_FEE_PER_GAS: '200000000000',
        MINTER_ADDRESS: `0x${'22'.repeat(20)}`,
        ...extra,
      },
    })
    expect(config.production).toBe(true)
    return startWorker({ config, log, onFatal: () => {} })
  }

  it("a MINTER_ADDRESS other than the web's: a ConfigError naming it", async () => {
    const web = createDb({ url: t.roleUrl('web'), max: 1 })
    try {
      expect(await checkSharedSettings(web.db, { role: 'web', minterAddress: `0x${'22'.repeat(20)}` })).toEqual({
        ok: true,
      })
    } finally {
      await web.close()
    }
    const refused = start({ MINTER_ADDRESS: `0x${'33'.repeat(20)}` })
    await expect(refused).rejects.toBeInstanceOf(ConfigError)
    await expect(refused).rejects.toMatchObject({ variables: ['MINTER_ADDRESS'] })
    // the same value as the web's: past the checks, on to the chain
    await expect(start()).rejects.toThrow(WorkerStartError)
    await expect(start()).rejects.toThrow(/the node at RPC_URL is chain 1/)
  })

  it('a privilege beyond its grants: a ConfigError naming DATABASE_URL, before the chain', async () => {
    await t.sql.unsafe('grant delete on chain_txs to mintdesk_worker')
    try {
      const refused = start()
      await expect(refused).rejects.toBeInstanceOf(ConfigError)
      await expect(refused).rejects.toMatchObject({
        variables: ['DATABASE_URL'],
        message: expect.stringContaining('DELETE on chain_txs'),
      })
    } finally {
      await t.sql.unsafe('revoke delete on chain_txs from mintdesk_worker')
    }
    await expect(start()).rejects.toThrow(/the node at RPC_URL is chain 1/)
  })

  it("its connections require the mint limits (public.check_mint_controls refuses while one is unset); the web's do not", async () => {
    // a probe: what mintdesk.require_mint_limits says on the connection that writes a runtime_settings row
    await t.sql.unsafe(`
      create table probe_require_limits (process text, setting text);
      create function probe_require_limits() returns trigger language plpgsql security definer
        set search_path = public as $$
        begin
          insert into probe_require_limits values (new.process, current_setting('mintdesk.require_mint_limits', true));
          return new;
        end $$;
      create trigger probe_require_limits after insert or update on runtime_settings
        for each row execute function probe_require_limits();`)
    try {
      await expect(start()).rejects.toThrow(/the node at RPC_URL is chain 1/)
      const web = createDb({ url: t.roleUrl('web'), max: 1 })
      try {
        await checkSharedSettings(web.db, { role: 'web', minterAddress: `0x${'22'.repeat(20)}` })
      } finally {
        await web.close()
      }
      const rows = await t.sql<{ process: string; setting: string | null }[]>`
        select process, setting from probe_require_limits`
      expect(rows.map((r) => [r.process, r.setting])).toEqual([
        ['worker', 'on'],
        ['web', null],
      ])
    } finally {
      await t.sql.unsafe(`
        drop trigger probe_require_limits on runtime_settings;
        drop function probe_require_limits();
        drop table probe_require_limits;`)
    }
  })
})
