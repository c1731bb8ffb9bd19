import { sql } from 'drizzle-orm'
import { type Address, getAddress, type Hex, recoverAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import {
  type BuildComplianceIntentParameters,
  buildComplianceIntent,
  hashComplianceIntent,
} from '@/lib/compliance/buildComplianceIntent'
import { InvalidSignatureError } from '@/lib/errors/approvals'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'

export type JudgeComplianceSignatureParameters = {
  operation: BuildComplianceIntentParameters
  signature: Hex
  /** the person signing: the key must be bound to them */
  userId: string
  minter: MinterReader
}

/**
 * The key an approver's signature of a compliance operation's intent counts for, by the chain's word: it recovers
 * to a key bound to that person (user_signing_keys) that GoldMinter counts as an approver, before the intent's
 * deadline. Every other case: 422 invalid_signature, saying which.
 */
export async function judgeComplianceSignature(db: DbOrTx, p: JudgeComplianceSignatureParameters): Promise<Address> {
  if (p.operation.intentDeadline.getTime() <= Date.now())
    throw new InvalidSignatureError(`The operation's intent expired at ${p.operation.intentDeadline.toISOString()}.`)
  const digest = hashComplianceIntent(p.minter.domain, buildComplianceIntent(p.operation))
  const recovered = await recoverAddress({ hash: digest, signature: p.signature }).catch(() => undefined)
  const signer = recovered === undefined ? undefined : getAddress(recovered)
  const keys = await db.execute<{ address: string }>(
    sql`select address from user_signing_keys where user_id = ${p.userId}::uuid`,
  )
  if (!signer || !keys.some((k) => k.address === signer.toLowerCase()))
    throw new InvalidSignatureError(
      "The signature does not recover to a signing key bound to you over this operation's intent.",
    )
  if (!(await p.minter.isApprover(signer)))
    throw new InvalidSignatureError(`Your key ${signer} is not an approver on chain.`)
  return signer
}
