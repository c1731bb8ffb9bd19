import { sql } from 'drizzle-orm'
import { getAddress, type Hex, isAddress, isHex, verifyMessage } from 'viem'
import type { Db } from '@/db/client'
import { recordAudit } from '@/lib/admin/recordAudit'
import { InvalidSignatureError } from '@/lib/errors/approvals'
import { isDevKeyAddress } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { ValidationError } from '@/lib/web/errors/request'
import { ConflictError } from '@/lib/web/errors/resource'
import type { ApiSigningKey } from './apiTypes'
import { signingKeyText } from './signingKeyText'

export type BindSigningKeyParameters = {
  user: Pick<SessionUser, 'id' | 'email' | 'role'>
  address: string
  /** the key's personal_sign of signingKeyText(user) */
  signature: string
  /** config.production: the dev mnemonic's keys are refused */
  production: boolean
}

/**
 * Binds a signing key to the signed-in user (POST /api/me/signing-key): the key's
 * personal_sign of the user's binding text must verify (ERC-1271 through `client` for a
 * contract wallet), else 422 invalid_signature; a key bound to another user: 409 conflict;
 * bound to this user already: answered as it is. Production refuses the dev mnemonic's
 * keys (422). Audited (user.signing_key_bind). Being bound is not being an approver: adding
 * the key to GoldMinter's approver set is a control change on chain.
 */
export async function bindSigningKey(
  db: Db,
  p: BindSigningKeyParameters & {
    verify?: (a: { address: `0x${string}`; message: string; signature: Hex }) => Promise<boolean>
  },
): Promise<ApiSigningKey> {
  if (!isAddress(p.address, { strict: false }))
    throw new ValidationError([{ path: 'address', message: 'A 20-byte hex address.' }])
  if (!isHex(p.signature)) throw new InvalidSignatureError('The signature is not hex.')
  const address = getAddress(p.address)
  if (p.production && isDevKeyAddress(address))
    throw new InvalidSignatureError(`${address} is a key of the public test mnemonic: production refuses it.`)
  const message = signingKeyText(p.user)
  const verify = p.verify ?? verifyMessage
  const valid = await verify({ address, message, signature: p.signature }).catch(() => false)
  if (!valid) throw new InvalidSignatureError(`The signature is not ${address}'s personal_sign of the binding text.`)

  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into user_signing_keys (address, user_id, binding_signature)
      values (${address.toLowerCase()}, ${p.user.id}::uuid, ${p.signature}) on conflict (address) do nothing`)
    const [row] = await tx.execute<{ user_id: string; bound_at: Date | string }>(
      sql`select user_id::text as user_id, bound_at from user_signing_keys where address = ${address.toLowerCase()}`,
    )
    if (!row) throw new Error('user_signing_keys lost a row')
    if (row.user_id !== p.user.id) throw new ConflictError(`${address} is bound to another user.`)
    await recordAudit(tx, {
      actor: p.user,
      action: 'user.signing_key_bind',
      targetType: 'user',
      targetId: p.user.id,
      detail: { address },
    })
    return { address, boundAt: new Date(row.bound_at).toISOString() }
  })
}
