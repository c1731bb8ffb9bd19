import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import { isUuid } from '@/lib/mint/isUuid'
import { buildRedemptionIntentTypedData } from '@/lib/redemption/buildRedemptionIntent'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiRedemptionApproval } from '@/lib/web/signing/apiTypes'
import { readRedemptionIntent } from './readRedemptionIntent'

/**
 * What an approver signs for a redemption: its RedemptionIntent rebuilt from the redemption, its bars and the
 * chain's redemption address, as typed data for eth_signTypedData_v4 (numbers as decimal strings), how many
 * approvers GoldMinter requires for its amount, and the signatures so far. Unknown: 404.
 */
export async function getRedemptionApprovalOrThrow(
  db: Db,
  p: { redemptionId: string; minter: MinterReader },
): Promise<ApiRedemptionApproval> {
  if (!isUuid(p.redemptionId)) throw new NotFoundError({ what: 'Redemption' })
  const redemptionId = p.redemptionId.toLowerCase()
  const intent = await readRedemptionIntent(db, { redemptionId, minter: p.minter })
  if (!intent) throw new NotFoundError({ what: 'Redemption' })
  const typed = buildRedemptionIntentTypedData(p.minter.domain, intent)
  const signatures = await db.execute<{ signer_address: string; email: string; signed_at: Date | string }>(sql`
    select s.signer_address, u.email, s.signed_at from redemption_signatures s join users u on u.id = s.user_id
    where s.redemption_id = ${redemptionId}::uuid order by s.signed_at`)
  const m = typed.message
  return {
    typedData: {
      domain: { ...typed.domain, chainId: String(typed.domain.chainId) },
      types: { RedemptionIntent: typed.types.RedemptionIntent.map((f) => ({ ...f })) },
      primaryType: typed.primaryType,
      message: {
        redemptionId: m.redemptionId,
        from: m.from,
        amount: m.amount.toString(),
        barsHash: m.barsHash,
        deadline: m.deadline.toString(),
      },
    },
    required: await p.minter.requiredApprovals(m.amount),
    signatures: signatures.map((s) => ({
      signer: getAddress(s.signer_address),
      user: s.email,
      at: new Date(s.signed_at).toISOString(),
    })),
  }
}
