import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import type { Db } from '@/db/client'
import { recordAudit } from '@/lib/admin/recordAudit'
import { BarAlreadyUsedError } from '@/lib/errors/mint'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { formatOrderAmount } from '@/lib/mint/formatOrderAmount'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { recordRedemptionEvent } from '@/lib/notifications/recordRedemptionEvent'
import { normalizeBarKey } from '@/lib/vault/normalizeBarKey'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { AccountFrozenError, DepositAlreadyUsedError } from '@/lib/web/errors/redemptions'
import { ValidationError } from '@/lib/web/errors/request'
import { BarNotInVaultError } from '@/lib/web/errors/vault'
import type { CreateRedemptionInput } from './schemas'

export type CreateRedemptionParameters = {
  input: Omit<CreateRedemptionInput, 'depositTx'> & { depositTx: string }
  user: Pick<SessionUser, 'id' | 'email'>
  /** GoldMinter and its token as the chain has them: whether the holder is frozen */
  minter: Pick<MinterReader, 'isFrozen'>
}

export type CreateRedemptionReturnType = { redemptionId: string; status: 'awaiting_approval' }

type DepositRow = { tx_hash: string; log_index: number; from_address: string; amount_wei: string }
type BarRow = {
  id: string
  serial: string
  refiner: string
  serial_key: string
  refiner_key: string
  status: string
  redemption_id: string | null
  fine_milli_oz: string
}

/**
 * A redemption request (docs/decisions/055-redemptions.md), in ONE transaction: the deposit (a transfer to the
 * redemption address the worker has seen with its confirmations; its holder not frozen on chain: 422
 * account_frozen), the bars by serial and refiner locked FOR UPDATE (each must be backing: a bar unknown is 422
 * bar_not_in_vault, one not backing 422 validation_failed, one held by an open redemption 409 bar_already_used),
 * their fine weight equal to the deposit's amount (422), then the redemption `awaiting_approval` holding the
 * deposit (a second request for it: 409 deposit_already_used, by the partial unique index) and its bars, with its
 * timeline event, its audit row and a redemption.awaiting_approval event. Nothing is written on a refusal.
 */
export async function createRedemption(
  db: Db,
  { input, user, minter }: CreateRedemptionParameters,
): Promise<CreateRedemptionReturnType> {
  const keys = input.bars.map((b, index) => {
    const serial = normalizeBarKey(b.serial)
    const refiner = normalizeBarKey(b.refiner)
    return { ...b, index, serialKey: serial.ok ? serial.key : null, refinerKey: refiner.ok ? refiner.key : null }
  })
  const badKeys = keys.filter((k) => k.serialKey === null || k.refinerKey === null)
  if (badKeys.length > 0)
    throw new ValidationError(
      badKeys.map((k) => ({ path: `bars.${k.index}`, message: 'not a bar serial and refiner' })),
    )
  const seen = new Set<string>()
  for (const k of keys) {
    const key = `${k.serialKey}\u0000${k.refinerKey}`
    if (seen.has(key)) throw new ValidationError([{ path: `bars.${k.index}`, message: 'the same bar twice' }])
    seen.add(key)
  }

  const deposit = await readDeposit(db, input)
  if (await minter.isFrozen(getAddress(deposit.from_address)))
    throw new AccountFrozenError({ address: getAddress(deposit.from_address), path: 'depositTx' })

  return db.transaction(async (tx) => {
    const bars = await tx.execute<BarRow>(sql`
      select b.id::text as id, b.serial, b.refiner, b.serial_key, b.refiner_key, b.status::text as status,
        b.redemption_id::text as redemption_id, (b.fine_oz * 1000)::bigint::text as fine_milli_oz
      from vault_bars b
      join jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ s: k.serialKey, r: k.refinerKey })))}::jsonb)
        as want(s text, r text) on b.serial_key = want.s and b.refiner_key = want.r
      order by b.id
      for update of b`)
    const byKey = new Map(bars.map((b) => [`${b.serial_key}\u0000${b.refiner_key}`, b]))
    const found = keys.map((k) => ({ k, bar: byKey.get(`${k.serialKey}\u0000${k.refinerKey}`) }))
    const unknown = found.filter((f) => !f.bar)
    if (unknown.length > 0)
      throw new BarNotInVaultError({
        vault: 'the inventory',
        bars: unknown.map(({ k }) => ({ serial: k.serial, refiner: k.refiner, index: k.index })),
      })
    const held = found.filter((f) => f.bar?.redemption_id)
    if (held.length > 0)
      throw new BarAlreadyUsedError({ bars: held.map(({ k }) => ({ serial: k.serial, refiner: k.refiner })) })
    const notBacking = found.filter((f) => f.bar?.status !== 'backing')
    if (notBacking.length > 0)
      throw new ValidationError(
        notBacking.map(({ k, bar }) => ({
          path: `bars.${k.index}`,
          message: `bar ${k.serial} (${k.refiner}) is ${bar?.status}, not backing a confirmed mint`,
        })),
        'Only bars that back confirmed mints can be redeemed.',
      )
    const fineWei = bars.reduce((sum, b) => sum + BigInt(b.fine_milli_oz), 0n) * WEI_PER_MILLI_OZ
    if (fineWei !== BigInt(deposit.amount_wei))
      throw new ValidationError(
        [
          {
            path: 'bars',
            message: `the bars weigh ${formatOrderAmount(fineWei.toString())} oz fine, the deposit is ${formatOrderAmount(deposit.amount_wei)} oz`,
          },
        ],
        "The bars' fine weight must equal the deposit's amount.",
      )

    const inserted = await tx.execute<{ id: string }>(sql`
        insert into redemptions (deposit_tx_hash, deposit_log_index, holder_address, amount_wei, reference,
          requested_by, intent_deadline)
        values (${deposit.tx_hash}, ${deposit.log_index}, ${deposit.from_address}, ${deposit.amount_wei}::numeric,
          ${input.reference}, ${user.id}::uuid, date_trunc('second', now()) + interval '7 days')
        on conflict (deposit_tx_hash, deposit_log_index) where status not in ('rejected', 'cancelled') do nothing
        returning id::text as id`)
    const id = inserted[0]?.id
    if (!id) throw new DepositAlreadyUsedError()
    await tx.execute(sql`
      insert into redemption_bars (redemption_id, bar_id, position)
      select ${id}::uuid, x.id, x.position
      from jsonb_to_recordset(${JSON.stringify(found.map((f, position) => ({ id: f.bar?.id, position })))}::jsonb)
        as x(id uuid, position int)`)
    await tx.execute(sql`
      update vault_bars set redemption_id = ${id}::uuid, updated_at = now()
      where id = any(${`{${bars.map((b) => b.id).join(',')}}`}::uuid[])`)
    const amount = formatOrderAmount(deposit.amount_wei)
    await recordJobEvent(tx, {
      event: 'approval_requested',
      task: TASK.redemptionSend,
      orderId: id,
      actor: user.email,
      detail: `burn ${amount} oz deposited by ${getAddress(deposit.from_address)} against ${bars.length} bar${bars.length === 1 ? '' : 's'}: awaiting approvers' signatures`,
    })
    await recordAudit(tx, {
      actor: user,
      action: 'redemption.request',
      targetType: 'redemption',
      targetId: id,
      detail: { depositTx: deposit.tx_hash, logIndex: deposit.log_index, amount, bars: bars.length },
    })
    await recordRedemptionEvent(tx, {
      type: 'redemption.awaiting_approval',
      redemptionId: id,
      status: null,
      from: null,
    })
    return { redemptionId: id, status: 'awaiting_approval' as const }
  })
}

/** The deposit the request names: by transaction and, when it holds several, log index (422 when none matches). */
async function readDeposit(db: Db, input: CreateRedemptionParameters['input']): Promise<DepositRow> {
  const rows = await db.execute<DepositRow>(sql`
    select tx_hash, log_index, from_address, amount_wei::text as amount_wei from deposits
    where tx_hash = ${input.depositTx.toLowerCase()}
      and (${input.logIndex ?? null}::int is null or log_index = ${input.logIndex ?? null}::int)
    order by log_index`)
  if (rows.length === 0)
    throw new ValidationError(
      [
        {
          path: 'depositTx',
          message: 'no deposit to the redemption address with its confirmations in this transaction',
        },
      ],
      'No deposit is known for this transaction.',
    )
  if (rows.length > 1)
    throw new ValidationError([
      { path: 'logIndex', message: `the transaction holds ${rows.length} deposits: say which (logIndex)` },
    ])
  const [row] = rows
  if (!row) throw new Error('unreachable: one deposit row')
  return row
}
