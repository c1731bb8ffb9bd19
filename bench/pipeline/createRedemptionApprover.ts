import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { HDAccount } from 'viem'
import * as schema from '../../db/schema'
import { devKey } from '../../lib/keys/devKeys'
import { buildRedemptionIntentTypedData } from '../../lib/redemption/buildRedemptionIntent'
import type { MinterReader } from '../../lib/web/approvals/MinterReader'
import { DEV_APPROVER_EMAIL, DEV_APPROVER2_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { readRedemptionIntent } from '../../lib/web/redemptions/readRedemptionIntent'
import { type ApiPostAnswer, type ApiPostPath, buildApiPost } from '../http/buildApiPost'
import { createJsonPoster, type JsonPoster } from '../http/createJsonPoster'
import { signIn } from '../http/signIn'

/** An approver's signature of a redemption, a path of the contract */
const APPROVE = '/api/gold/redemptions/{redemptionId}/approve' satisfies ApiPostPath

/** Signs redemptions as the approvers' wallets do and hands them to the desk: the burn drain fills its queue so. */
export type RedemptionApprover = {
  /** approves every redemption, `concurrency` at once; throws on a refusal */
  approveAll: (redemptionIds: readonly string[], concurrency: number) => Promise<void>
  close: () => void
}

export type CreateRedemptionApproverParameters = {
  sql: postgres.Sql
  baseUrl: string
  /** the stack's environment: DEV_APPROVER_PASSWORD, DEV_APPROVER2_PASSWORD */
  env: Record<string, string>
  /** the redemption address and GoldMinter's domain, as the web reads them */
  minter: Pick<MinterReader, 'domain' | 'redemptionAddress'>
  maxSockets: number
}

/**
 * The stack's dev approvers (approver@ with dev key 10, approver2@ with dev key 11) as their wallets approve a
 * redemption, as createOrderApprover does for a mint: the RedemptionIntent rebuilt from the redemption, its bars and
 * the redemption address (lib/web/redemptions/readRedemptionIntent.ts), signed (EIP-712, GoldMinter's domain), and
 * posted to POST /api/gold/redemptions/{id}/approve { signature }; the second approver signs only while the answer
 * still says awaiting_approval. So the web checks every signature and adds each redemption_send job.
 */
export async function createRedemptionApprover(p: CreateRedemptionApproverParameters): Promise<RedemptionApprover> {
  const db = drizzle(p.sql, { schema })
  const approvers: { poster: JsonPoster; key: HDAccount }[] = []
  for (const [email, password, key] of [
    [DEV_APPROVER_EMAIL, need(p.env, 'DEV_APPROVER_PASSWORD'), devKey('approver')],
    [DEV_APPROVER2_EMAIL, need(p.env, 'DEV_APPROVER2_PASSWORD'), devKey('approver2')],
  ] as const) {
    const session = await signIn({ baseUrl: p.baseUrl, email, password })
    approvers.push({ poster: createJsonPoster({ session, maxSockets: p.maxSockets }), key })
  }
  const approve = async (redemptionId: string) => {
    const intent = await readRedemptionIntent(db, { redemptionId, minter: p.minter })
    if (!intent) throw new Error(`approve: no redemption ${redemptionId}`)
    const typedData = buildRedemptionIntentTypedData(p.minter.domain, intent)
    for (const a of approvers) {
      const signature = await a.key.signTypedData(typedData)
      const res = await a.poster.post(
        buildApiPost(APPROVE, { params: { path: { redemptionId } }, body: { signature } }),
      )
      if (res.status !== 200) throw new Error(`approve ${redemptionId}: ${res.status} ${res.body.slice(0, 300)}`)
      // the redemption as GET .../{id} shows it
      const { status } = JSON.parse(res.body) as ApiPostAnswer<typeof APPROVE>
      if (status !== 'awaiting_approval') return
    }
    throw new Error(`approve ${redemptionId}: still awaiting approval after every dev approver signed`)
  }
  return {
    approveAll: async (redemptionIds, concurrency) => {
      let next = 0
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < redemptionIds.length) await approve(redemptionIds[next++] as string)
        }),
      )
    },
    close: () => {
      for (const a of approvers) a.poster.close()
    },
  }
}

function need(env: Record<string, string>, key: string): string {
  const value = env[key]
  if (!value) throw new Error(`the stack has no ${key}`)
  return value
}
