import { sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createDb } from '@/db/client'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { buildJobSpec } from '@/lib/jobs/buildJobSpec'
import { redemptionSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { devAccountAt } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ApiDeposit, ApiRedemption } from '@/lib/web/redemptions/apiTypes'
import type { ApiRedemptionApproval } from '@/lib/web/signing/apiTypes'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { ensureDevApprovers } from '@/tests/helpers/approvals'
import { importTestBarList } from '@/tests/helpers/barLists'
import { signInAs } from '@/tests/helpers/fakeSession'
import { createTestOrders } from '@/tests/helpers/orders'
import { depositToRedemptionAddress, signRedemptionApproval } from '@/tests/helpers/redemptions'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

// A redemption end to end (docs/decisions/055-redemptions.md) through the real routes as the web's database role,
// a real worker, anvil and the KMS endpoint: the holder's transfer, the deposit seen, the bars matched, an
// approver's signature, the burn once. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

const OZ = 10n ** 18n
const holder = devAccountAt(5)

describe('redemptions', () => {
  let chain: ChainFixture
  let route: RouteTest
  let worker: WorkerProcess
  let approver: SessionUser
  let bars: { serial: string; refiner: string; orderId: string }[]
  let r: {
    deposits: typeof import('@/app/api/gold/deposits/route')
    redemptions: typeof import('./route')
    one: typeof import('./[redemptionId]/route')
    approval: typeof import('./[redemptionId]/approval/route')
    approve: typeof import('./[redemptionId]/approve/route')
    cancel: typeof import('@/app/api/admin/jobs/[jobId]/cancel/route')
  }

  const supply = () =>
    chain.publicClient.readContract({ address: chain.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  const deposit = (amount: bigint) => depositToRedemptionAddress(chain, { holder, amount })
  async function seen(txHash: Hex): Promise<ApiDeposit> {
    return waitFor(
      async () => {
        const res = await r.deposits.GET(routeRequest('/api/gold/deposits?status=unmatched'))
        const body = (await res.json()) as { items: ApiDeposit[] }
        return body.items.find((d) => d.txHash === txHash)
      },
      { timeoutMs: 20_000, what: `the deposit ${txHash}` },
    )
  }
  const request = (body: unknown) => r.redemptions.POST(routeRequest('/api/gold/redemptions', { method: 'POST', body }))
  const get = async (redemptionId: string) => {
    const res = await r.one.GET(routeRequest(`/api/gold/redemptions/${redemptionId}`), routeParams({ redemptionId }))
    return (await res.json()) as ApiRedemption
  }

  beforeAll(async () => {
    chain = await startChainFixture()
    process.env.RPC_URL = chain.rpcUrl
    process.env.CHAIN_ID = String(chain.chainId)
    process.env.MINTER_ADDRESS = chain.minterAddress
    process.env.TOKEN_ADDRESS = chain.tokenAddress
    route = await startRouteTest()
    const [first] = await ensureDevApprovers(route.t.db)
    if (!first) throw new Error('no dev approver')
    const [row] = await route.t.db.execute<{ email: string }>(
      sql`select email from users where id = ${first.userId}::uuid`,
    )
    approver = { id: first.userId, email: row?.email ?? '', role: 'approver' }
    r = {
      deposits: await import('@/app/api/gold/deposits/route'),
      redemptions: await import('./route'),
      one: await import('./[redemptionId]/route'),
      approval: await import('./[redemptionId]/approval/route'),
      approve: await import('./[redemptionId]/approve/route'),
      cancel: await import('@/app/api/admin/jobs/[jobId]/cancel/route'),
    }
    worker = startWorkerProcess({
      name: 'redemptions',
      env: workerEnv({ databaseUrl: route.t.url, chain, env: { DEPOSIT_WATCH_MS: '200' } }),
    })
    await worker.waitForLine((l) => l.msg === 'worker started')
    // three confirmed mints to the holder: 1, 2 and 3 oz, each backed by one bar
    const orders = await createTestOrders(route.t.db, {
      count: 3,
      to: [holder.address],
      amountWei: (i) => BigInt(i + 1) * OZ,
    })
    await waitFor(
      async () => {
        const [n] = await route.t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from mint_orders where status = 'confirmed'`,
        )
        return (n?.n ?? 0) === orders.length ? true : undefined
      },
      { timeoutMs: 30_000, what: 'the three mints confirmed' },
    )
    bars = await route.t.db.execute<{ serial: string; refiner: string; orderId: string }>(sql`
      select b.serial, b.refiner, b.order_id::text as "orderId" from vault_bars b join mint_orders o on o.id = b.order_id
      where b.status = 'backing' order by o.amount_wei`)
  }, 120_000)

  afterAll(async () => {
    await worker?.stop('SIGTERM')
    await route?.close()
    await chain?.stop()
  })

  it('sees the deposit, matches whole bars of its weight, and burns it once with an approver signature', async () => {
    const [oneOz, twoOz] = bars
    if (!oneOz || !twoOz) throw new Error('no bars')
    signInAs(route.u.staff)
    const txHash = await deposit(2n * OZ)
    const seenDeposit = await seen(txHash)
    expect(seenDeposit).toMatchObject({ amount: '2.000', status: 'unmatched', from: holder.address })

    // bars that weigh other than the deposit: refused, nothing written
    const wrong = await request({ depositTx: txHash, bars: [oneOz], reference: 'REL-1' })
    expect(await errorOf(wrong)).toMatchObject({ status: 422, code: 'validation_failed' })
    const unknown = await request({ depositTx: txHash, bars: [{ serial: 'NOPE', refiner: 'Nobody' }], reference: 'x' })
    expect(await errorOf(unknown)).toMatchObject({ status: 422, code: 'bar_not_in_vault' })
    const [none] = await route.t.db.execute<{ n: number }>(sql`select count(*)::int as n from redemptions`)
    expect(none?.n).toBe(0)

    // two requests for the deposit at once: exactly one takes it
    const body = { depositTx: txHash, bars: [twoOz], reference: 'REL-2' }
    const answers = await Promise.all([request(body), request(body)])
    const accepted = answers.filter((a) => a.status === 202)
    expect(accepted).toHaveLength(1)
    const refused = answers.find((a) => a.status !== 202)
    if (!refused) throw new Error('both accepted')
    expect(['deposit_already_used', 'bar_already_used']).toContain((await errorOf(refused)).code)
    const [first] = accepted
    if (!first) throw new Error('none accepted')
    const { redemptionId } = (await first.json()) as { redemptionId: string }
    expect((await get(redemptionId)).status).toBe('awaiting_approval')

    // the requester's role cannot sign; an approver signs the typed data the route gives
    const params = routeParams({ redemptionId })
    const staffApproval = await r.approval.GET(routeRequest(`/api/gold/redemptions/${redemptionId}/approval`), params)
    expect(staffApproval.status).toBe(403)
    signInAs(approver)
    const approval = (await (
      await r.approval.GET(routeRequest(`/api/gold/redemptions/${redemptionId}/approval`), params)
    ).json()) as ApiRedemptionApproval
    expect(approval.required).toBe(1)
    expect(approval.typedData.message.amount).toBe((2n * OZ).toString())
    const signature = await signRedemptionApproval(approval)
    const before = await supply()
    const approved = await r.approve.POST(
      routeRequest(`/api/gold/redemptions/${redemptionId}/approve`, { method: 'POST', body: { signature } }),
      params,
    )
    expect(approved.status, await approved.clone().text()).toBe(200)

    const burned = await waitFor(
      async () => {
        const one = await get(redemptionId)
        return one.status === 'burned' ? one : undefined
      },
      { timeoutMs: 30_000, what: 'the burn confirmed' },
    )
    expect(burned.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(burned.bars).toEqual([expect.objectContaining({ serial: twoOz.serial, status: 'redeemed' })])
    expect(burned.timeline.map((e) => e.event)).toEqual(expect.arrayContaining(['signed', 'broadcast', 'confirmed']))
    expect(await supply()).toBe(before - 2n * OZ)
    const deposits = (await (await r.deposits.GET(routeRequest('/api/gold/deposits'))).json()) as {
      items: ApiDeposit[]
    }
    expect(deposits.items.find((d) => d.txHash === txHash)).toMatchObject({ status: 'redeemed', redemptionId })
    // one burn transaction, and the bar no longer backs
    const [txs] = await route.t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chain_txs where redemption_id = ${redemptionId}::uuid and mined_block is not null`,
    )
    expect(txs?.n).toBe(1)
    const [backing] = await route.t.db.execute<{ oz: string }>(
      sql`select coalesce(sum(fine_oz), 0)::numeric(12, 3)::text as oz from vault_bars where status = 'backing'`,
    )
    expect(backing?.oz).toBe('4.000')
    // its notifications, each fanned out by the dispatch: the deposit, the approval asked, the burn
    const events = await waitFor(
      async () => {
        const rows = await route.t.db.execute<{ type: string; dispatched: boolean }>(sql`
          select type, dispatched_at is not null as dispatched from notification_events
          where redemption_id = ${redemptionId}::uuid or payload->>'txHash' = ${txHash} order by created_at`)
        return rows.length === 3 && rows.every((e) => e.dispatched) ? rows.map((e) => e.type) : undefined
      },
      { timeoutMs: 10_000, what: 'the redemption events dispatched' },
    )
    expect(events).toEqual(['redemption.deposit_received', 'redemption.awaiting_approval', 'redemption.burned'])

    // the custodian ships the bar: the next list lacks it, and it is withdrawn, not missing
    const others = await route.t.db.execute<{
      vault: string
      serial: string
      refiner: string
      year: number
      grossOz: string
      fineness: string
    }>(sql`
      select vault, serial, refiner, year, gross_oz::text as "grossOz", fineness::text as fineness from vault_bars
      where vault = (select vault from vault_bars where serial = ${twoOz.serial}) and serial <> ${twoOz.serial}`)
    const vault = others[0]?.vault
    if (!vault) throw new Error('no vault')
    const imported = await importTestBarList(route.t.db, { vault, bars: others })
    expect(imported.missing).toEqual([])
    expect(imported.withdrawn).toBe(1)
    const [shipped] = await route.t.db.execute<{ status: string }>(
      sql`select status::text as status from vault_bars where serial = ${twoOz.serial}`,
    )
    expect(shipped?.status).toBe('withdrawn')
  })

  it('burns nothing of a redemption the web database role set pending without signatures', async () => {
    const [oneOz] = bars
    if (!oneOz) throw new Error('no bars')
    signInAs(route.u.staff)
    const txHash = await deposit(OZ)
    await seen(txHash)
    const before = await supply()
    // as the web's database role, around every route: a pending redemption, its bar and its job
    const { db: web, close } = createDb({ url: route.t.roleUrl('web'), max: 2 })
    const [forged] = await web.execute<{ id: string }>(sql`
      insert into redemptions (deposit_tx_hash, deposit_log_index, holder_address, amount_wei, reference, status,
        requested_by, intent_deadline)
      select tx_hash, log_index, from_address, amount_wei, 'forged', 'pending', ${route.u.staff.id}::uuid,
        now() + interval '1 day' from deposits where tx_hash = ${txHash}
      returning id::text as id`)
    if (!forged) throw new Error('not forged')
    await web.execute(sql`
      insert into redemption_bars (redemption_id, bar_id, position)
      select ${forged.id}::uuid, b.id, 0 from vault_bars b where b.serial = ${oneOz.serial}`)
    await web.execute(sql`update vault_bars set redemption_id = ${forged.id}::uuid where serial = ${oneOz.serial}`)
    const spec = buildJobSpec({
      task: TASK.redemptionSend,
      payload: { redemptionId: forged.id },
      jobKey: redemptionSendJobKey(forged.id),
      maxAttempts: 5,
      orderId: forged.id,
      actor: 'attacker',
    })
    await web.execute(sql`select public.enqueue_job(${JSON.stringify(spec)}::jsonb)`)
    await close()
    await waitFor(
      async () => {
        const [row] = await route.t.db.execute<{ status: string }>(
          sql`select status::text as status from redemptions where id = ${forged.id}::uuid`,
        )
        return row?.status === 'failed' ? true : undefined
      },
      { timeoutMs: 30_000, what: 'the forged redemption failed' },
    )
    const [sent] = await route.t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chain_txs where redemption_id = ${forged.id}::uuid`,
    )
    expect(sent?.n).toBe(0)
    expect(await supply()).toBe(before)

    // an admin cancels the dead job: the redemption is cancelled, its deposit and bar free for a real one
    const [job] = await route.t.db.execute<{ job_id: string }>(
      sql`select job_id::text as job_id from job_records where order_id = ${forged.id}::uuid and task = ${TASK.redemptionSend}`,
    )
    if (!job) throw new Error('no job record')
    signInAs(route.u.admin)
    const cancelled = await r.cancel.POST(
      routeRequest(`/api/admin/jobs/${job.job_id}/cancel`, { method: 'POST' }),
      routeParams({ jobId: job.job_id }),
    )
    expect(cancelled.status, await cancelled.clone().text()).toBe(200)
    expect((await get(forged.id)).status).toBe('cancelled')
    signInAs(route.u.staff)
    const again = await request({ depositTx: txHash, bars: [oneOz], reference: 'REL-3' })
    expect(again.status, await again.clone().text()).toBe(202)
  })
})
