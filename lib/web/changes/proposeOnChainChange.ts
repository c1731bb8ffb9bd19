import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { getAddress, type Hex } from 'viem'
import type { Db } from '@/db/client'
import { controlChanges } from '@/db/schema/controlChanges'
import { type AdminActor, recordAudit } from '@/lib/admin/recordAudit'
import { isOnChainChangeKind, type ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import { ValidationError } from '@/lib/web/errors/request'
import { ConflictError } from '@/lib/web/errors/resource'
import type { ApiChangeToSign, ApiControlChangeAccepted } from './apiTypes'
import { parseControlChange } from './controlChangeParams'
import { judgeChangeSignature } from './judgeChangeSignature'
import { CHANGE_DEADLINE_MS, onChainChangeTypedData } from './onChainChangeTypedData'

/** a deadline given back sooner than this is too short to collect a second admin's signature */
const MIN_DEADLINE_MS = 10 * 60 * 1000
/** and no later than this: GoldMinter holds a signed change until its deadline */
const MAX_DEADLINE_MS = 30 * 24 * 60 * 60 * 1000

/** A change that lives on chain, as its kind's schema parses it (422 on its params, naming each issue). */
export function parseOnChainChange(p: { kind: string; params: unknown }): ParsedOnChainChange {
  const change = parseControlChange(p)
  if (!isOnChainChangeKind(change.kind))
    throw new ValidationError([{ path: 'kind', message: `${change.kind} is not a change that lives on chain` }])
  return change as ParsedOnChainChange
}

/**
 * What an admin signs to propose a change that lives on chain: a fresh change id and a deadline
 * (CHANGE_DEADLINE_MS from now, whole seconds), its ControlChange as typed data, and GoldMinter's
 * admin threshold. Nothing is written: the change exists once it is proposed with its signature.
 */
export async function changeToSign(p: {
  kind: string
  params: unknown
  minter: MinterReader
}): Promise<ApiChangeToSign> {
  const change = parseOnChainChange(p)
  const changeId = randomUUID()
  const deadline = new Date(Math.floor((Date.now() + CHANGE_DEADLINE_MS) / 1000) * 1000)
  const typedData = onChainChangeTypedData({ changeId, change, deadline, minter: p.minter })
  return { changeId, deadline: deadline.toISOString(), typedData, required: await p.minter.adminThreshold() }
}

export type ProposeOnChainChangeParameters = {
  body: { kind: string; params: unknown; changeId: string; deadline: string; signature: string }
  author: AdminActor
  minter: MinterReader
}

/**
 * An admin proposes a change that lives on chain (docs/decisions/051-on-chain-control-changes.md) with their EIP-712
 * signature of its ControlChange (the typed data of changeToSign): the params parsed by the kind's schema,
 * the deadline within 10 minutes to 30 days, the signature judged by the chain's word
 * (judgeChangeSignature: a key bound to the author that GoldMinter counts as an admin), then in
 * ONE transaction the change stored awaiting a second admin, the author's signature with it, and
 * its `change.propose` audit row. A change id used already: 409 conflict. Nothing is written on a
 * refusal.
 */
export async function proposeOnChainChange(
  db: Db,
  { body, author, minter }: ProposeOnChainChangeParameters,
): Promise<ApiControlChangeAccepted> {
  const change = parseOnChainChange(body)
  const changeId = body.changeId.toLowerCase()
  const deadline = new Date(body.deadline)
  const ahead = deadline.getTime() - Date.now()
  if (ahead < MIN_DEADLINE_MS || ahead > MAX_DEADLINE_MS || deadline.getMilliseconds() !== 0)
    throw new ValidationError([
      { path: 'deadline', message: 'a whole second 10 minutes to 30 days ahead, as the typed data gave it' },
    ])
  const signature = body.signature as Hex
  const signer = await judgeChangeSignature(db, { changeId, change, deadline, signature, userId: author.id, minter })
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(controlChanges)
      .values({
        id: changeId,
        kind: change.kind,
        params: change.params,
        authorId: author.id,
        authorEmail: author.email,
        deadline,
      })
      .onConflictDoNothing()
      .returning({ id: controlChanges.id })
    if (inserted.length === 0) throw new ConflictError('A change with this id exists: ask for new typed data.')
    await tx.execute(sql`
      insert into control_change_signatures (change_id, user_id, signer_address, signature)
      values (${changeId}::uuid, ${author.id}::uuid, ${signer.toLowerCase()}, ${signature})`)
    await recordAudit(tx, {
      actor: author,
      action: 'change.propose',
      targetType: 'control_change',
      targetId: changeId,
      detail: { kind: change.kind, params: change.params, signer: getAddress(signer) },
    })
    return { changeId, status: 'awaiting_second_admin' as const }
  })
}
