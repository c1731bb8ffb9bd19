import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import { buildMintIntentTypedData } from '@/lib/mint/buildMintIntent'
import { isUuid } from '@/lib/mint/isUuid'
import { NotFoundError } from '@/lib/web/errors/resource'
import type { ApiMintApproval } from './apiTypes'
import type { MinterReader } from './MinterReader'
import { readOrderIntent } from './readOrderIntent'

export type GetMintApprovalOrThrowParameters = { orderId: string; minter: MinterReader }

/**
 * What an approver signs for the order: its MintIntent rebuilt from the order and its bars
 * (lib/mint/buildMintIntent.ts) as typed data ready for eth_signTypedData_v4 (numbers as
 * decimal strings), how many approvers GoldMinter requires for its amount, and the
 * signatures so far. Unknown order (or not a uuid): NotFoundError.
 */
export async function getMintApprovalOrThrow(
  db: Db,
  { orderId, minter }: GetMintApprovalOrThrowParameters,
): Promise<ApiMintApproval> {
  if (!isUuid(orderId)) throw new NotFoundError({ what: 'Order' })
  const id = orderId.toLowerCase()
  const intent = await readOrderIntent(db, { orderId: id })
  if (!intent) throw new NotFoundError({ what: 'Order' })
  const typed = buildMintIntentTypedData(minter.domain, intent)
  const signatures = await db.execute<{ signer_address: string; email: string; signed_at: Date | string }>(sql`
    select s.signer_address, u.email, s.signed_at from mint_order_signatures s join users u on u.id = s.user_id
    where s.order_id = ${id}::uuid order by s.signed_at`)
  const m = typed.message
  return {
    typedData: {
      domain: { ...typed.domain, chainId: String(typed.domain.chainId) },
      types: typed.types,
      primaryType: typed.primaryType,
      message: {
        orderId: m.orderId,
        to: m.to,
        amount: m.amount.toString(),
        barsHash: m.barsHash,
        deadline: m.deadline.toString(),
      },
    },
    required: await minter.requiredApprovals(m.amount),
    signatures: signatures.map((s) => ({
      signer: getAddress(s.signer_address),
      user: s.email,
      at: new Date(s.signed_at).toISOString(),
    })),
  }
}
