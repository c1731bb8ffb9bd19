import { sql } from 'drizzle-orm'
import { type Address, getAddress, type Hex, recoverTypedDataAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { buildControlChangeTypedData } from '@/lib/changes/controlChangeIntent'
import type { ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import { InvalidSignatureError } from '@/lib/errors/approvals'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'

export type JudgeChangeSignatureParameters = {
  changeId: string
  change: ParsedOnChainChange
  deadline: Date
  signature: Hex
  /** the admin signing: the key must be bound to them */
  userId: string
  minter: MinterReader
}

/**
 * The key an admin's signature of a change's ControlChange counts for, by the chain's word: it
 * recovers to a key bound to that admin (user_signing_keys) that GoldMinter counts as an admin,
 * before the change's deadline. Anything else: 422 invalid_signature, saying which.
 */
export async function judgeChangeSignature(db: DbOrTx, p: JudgeChangeSignatureParameters): Promise<Address> {
  if (p.deadline.getTime() <= Date.now())
    throw new InvalidSignatureError(`The change expired at ${p.deadline.toISOString()}.`)
  const typedData = buildControlChangeTypedData(p.minter.domain, p)
  const recovered = await recoverTypedDataAddress({ ...typedData, signature: p.signature }).catch(() => undefined)
  const signer = recovered === undefined ? undefined : getAddress(recovered)
  const keys = await db.execute<{ address: string }>(
    sql`select address from user_signing_keys where user_id = ${p.userId}::uuid`,
  )
  if (!signer || !keys.some((k) => k.address === signer.toLowerCase()))
    throw new InvalidSignatureError('The signature does not recover to a signing key bound to you over this change.')
  if (!(await p.minter.isAdmin(signer))) throw new InvalidSignatureError(`Your key ${signer} is not an admin on chain.`)
  return signer
}
