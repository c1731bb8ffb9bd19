import { devAccountAt } from '../../lib/keys/devKeys'
import { createMinterReader } from '../../lib/web/approvals/MinterReader'
import { createRedemptionApprover } from '../pipeline/createRedemptionApprover'
import { runBurnDrain } from '../pipeline/runBurnDrain'
import { renderBurnDrain } from '../report/renderBurnDrain'
import type { BenchRun } from './BenchRun'

/** The burn drain beside the mint drains: redemptions signed and queued, then drained by 1 signer x 1 worker. */
export const burnDrainRun: BenchRun<'burn'> = {
  name: 'burn drain',
  section: 8,
  stack: 'main',
  enabled: (o) => o.burns > 0,
  run: async (ctx) => {
    const { options: o, stack, chain } = ctx
    await ctx.sendNotifications('the last drain')
    const redemptionApprover = await createRedemptionApprover({
      sql: ctx.sql,
      baseUrl: stack.url,
      env: stack.env,
      minter: createMinterReader({ client: chain.client, chainId: chain.chainId, minterAddress: chain.minterAddress }),
      maxSockets: Math.max(64, o.submitConcurrency),
    })
    try {
      const burn = await runBurnDrain({
        sql: ctx.sql,
        chain: chain.client,
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        tokenAddress: chain.tokenAddress,
        minterAddress: chain.minterAddress,
        // anvil's dev accounts 1 to 4 (gas money, on the allowlist): the holders who redeem
        holders: [1, 2, 3, 4].map((i) => devAccountAt(i)),
        burns: o.burns,
        staff: { id: ctx.staff.id, email: ctx.staff.email },
        approver: redemptionApprover,
        approveConcurrency: o.submitConcurrency,
        workerSigners: ctx.workerSigners,
        startWorker: stack.startWorker,
        stopWorkers: stack.stopWorkers,
        timeline: ctx.timeline,
        timeoutMs: Math.max(120_000, o.burns * 300),
        log: ctx.log,
      })
      return { burn }
    } finally {
      redemptionApprover.close()
    }
  },
  render: renderBurnDrain,
  method: [
    "Burn drain: N redemptions (500 in the full run, 100 in `--quick`, 20 in `--smoke`) created, signed and queued with no worker running, then drained by 1 worker process with 1 signer active. Setup outside the window: confirmed mints to four holders (baseline orders, relayed by the holders), each mint's amount transferred back to the redemption address (pre-signed, sent raw with explicit nonces), the deposits recorded by a worker's `deposit_watch`, one redemption per deposit (`createRedemption`, one bar of equal fine weight). The approvals go through `POST /api/gold/redemptions/{id}/approve` as the mints' do. The window runs from the first job_events row of the batch after its `enqueued` rows to its last `confirmed` row (the redemption's `burned` is set in the same transaction); rate = burned redemptions / window; CPU per burn = each group's CPU over that window and the approvals' window (sampled as for the mint drain) / burned redemptions. The table beside it shows the same run's 1 signer x 1 worker mint drain, CPU counted the same way.",
  ],
}
