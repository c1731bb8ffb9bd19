import { sql } from 'drizzle-orm'
import { zeroAddress } from 'viem'
import { z } from 'zod'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { enqueueFollowUp } from '@/lib/jobs/enqueueFollowUp'
import { DEPOSIT_WATCH_JOB_KEY, TASK } from '@/lib/jobs/jobKeys'
import { readCursorStart } from '../db/readCursorStart'
import { recordDeposits, type SeenDeposit } from '../db/recordDeposits'
import { readRedemptionAddress } from '../operations/redemption/prepareBurnCalls'
import type { TaskDefinition } from '../runtime/runTask'

export const depositWatchPayload = z.object({})
export type DepositWatchPayload = z.infer<typeof depositWatchPayload>

/** dead after this many failures in a row (the chain unreadable); every worker's heartbeat revives it */
export const DEPOSIT_WATCH_MAX_ATTEMPTS = 3

/** the watcher's row of chain_cursors */
export const DEPOSIT_CURSOR = 'deposits'

/** the most blocks one log query spans (providers cap the range of eth_getLogs) */
const MAX_BLOCK_SPAN = 5_000n

/**
 * deposit_watch, one job across all workers (job key deposit_watch), every DEPOSIT_WATCH_MS
 * (docs/decisions/055-redemptions.md): reads the token's Transfer logs to GoldMinter's redemption address from the
 * block after its cursor up to the newest block with the desk's confirmations, and records each transfer as a
 * deposit (recordDeposits: its redemption.deposit_received event with it), moving the cursor in the same
 * transaction; with no cursor yet, from the token's deployment block (TOKEN_DEPLOY_BLOCK). Only blocks with their
 * confirmations are read, so a recorded deposit is not reorged away; a mint (from the zero address) is no deposit.
 */
export const depositWatch: TaskDefinition<DepositWatchPayload> = {
  name: TASK.depositWatch,
  payload: depositWatchPayload,
  run: async (ctx, job) => {
    const [head, redemptionAddress, start] = await Promise.all([
      ctx.chain.getBlockNumber({ cacheTime: 0 }),
      readRedemptionAddress(ctx),
      readCursorStart(ctx.db, { name: DEPOSIT_CURSOR, deployBlock: ctx.deployBlock }),
    ])
    const safe = head - BigInt(Math.max(ctx.confirmations, 1)) + 1n
    let from = start
    while (from <= safe) {
      const to = from + MAX_BLOCK_SPAN - 1n < safe ? from + MAX_BLOCK_SPAN - 1n : safe
      const logs = await ctx.chain.getContractEvents({
        address: ctx.tokenAddress,
        abi: goldTokenAbi,
        eventName: 'Transfer',
        args: { to: redemptionAddress },
        fromBlock: from,
        toBlock: to,
        strict: true,
      })
      const deposits: SeenDeposit[] = []
      for (const log of logs) {
        if (log.args.from === zeroAddress || log.args.value === 0n) continue
        deposits.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          fromAddress: log.args.from,
          amountWei: log.args.value,
        })
      }
      const added = await ctx.db.transaction((tx) =>
        recordDeposits(tx, { deposits, cursor: { name: DEPOSIT_CURSOR, block: to } }),
      )
      if (added > 0) job.log.info({ added, fromBlock: from.toString(), toBlock: to.toString() }, 'deposits seen')
      from = to + 1n
    }

    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('mintdesk:deposit_watch'))`)
      await enqueueFollowUp(tx, {
        currentJobId: job.jobId,
        task: TASK.depositWatch,
        jobKey: DEPOSIT_WATCH_JOB_KEY,
        payload: {},
        runAt: new Date(Date.now() + ctx.settings.depositWatchMs),
        maxAttempts: DEPOSIT_WATCH_MAX_ATTEMPTS,
        actor: job.actor,
      })
    })
  },
}
