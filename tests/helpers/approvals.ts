import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { HDAccount } from 'viem'
import type { Db, DbOrTx } from '@/db/client'
import { users } from '@/db/schema/users'
import { barsRoot, totalFineWei, vaultId } from '@/lib/chain/bars'
import { barListTypedData, DEV_APPROVAL_RULE, type GoldMinterDomainParameters } from '@/lib/chain/typedData'
import type { QueueTransport } from '@/lib/jobs/addJob'
import { devKey } from '@/lib/keys/devKeys'
import { buildMintIntentTypedData } from '@/lib/mint/buildMintIntent'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { readOrderIntent } from '@/lib/web/approvals/readOrderIntent'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { DEV_MINTER_DOMAIN } from '@/scripts/stack/devChain'

// TEST ONLY: approvals and custodian signatures made with the dev keys (lib/keys/devKeys.ts),
// as an approver's wallet and the custodian's tool make them: EIP-712 over the order's
// MintIntent (lib/mint/buildMintIntent.ts) and over a BarList (lib/chain/typedData.ts).

/** The dev approvers' users (approver 10 and 11 of the dev mnemonic), their keys bound; once per database. */
export async function ensureDevApprovers(db: DbOrTx): Promise<{ userId: string; key: HDAccount }[]> {
  const out: { userId: string; key: HDAccount }[] = []
  for (const [name, email] of [
    ['approver', 'dev-approver@mintdesk.test'],
    ['approver2', 'dev-approver2@mintdesk.test'],
  ] as const) {
    const key = devKey(name)
    await db.insert(users).values({ email, name: email, role: 'approver' }).onConflictDoNothing()
    const [u] = await db.execute<{ id: string }>(sql`select id::text as id from users where email = ${email}`)
    if (!u) throw new Error(`no user ${email}`)
    await db.execute(sql`
      insert into user_signing_keys (address, user_id, binding_signature) values (${key.address.toLowerCase()}, ${u.id}::uuid, '0x')
      on conflict (address) do nothing`)
    // the key may have been bound to another approver user of this database first: sign as that one
    const [bound] = await db.execute<{ user_id: string }>(
      sql`select user_id::text as user_id from user_signing_keys where address = ${key.address.toLowerCase()}`,
    )
    out.push({ userId: bound?.user_id ?? u.id, key })
  }
  return out
}

/**
 * Signs the order's MintIntent, rebuilt from its row and bars, with as many dev approvers as
 * the dev rule asks (1 below 10,000 oz, 2 at or above) or `count`, and stores the
 * signatures as the approve route does (without moving the order on).
 */
export async function signOrderApprovals(
  db: DbOrTx,
  p: { orderId: string; count?: number; domain?: GoldMinterDomainParameters },
): Promise<void> {
  const [order] = await db.execute<{ to_address: string; intent_deadline: Date | string; amount_wei: string }>(sql`
    select to_address, intent_deadline, amount_wei::text as amount_wei from mint_orders where id = ${p.orderId}::uuid`)
  if (!order) throw new Error(`no order ${p.orderId}`)
  const bars = await db.execute<{ serial: string; refiner: string; fine_milli_oz: string }>(sql`
    select b.serial, b.refiner, (b.fine_oz * 1000)::bigint::text as fine_milli_oz
    from mint_order_bars m join vault_bars b on b.id = m.bar_id where m.order_id = ${p.orderId}::uuid`)
  const typedData = buildMintIntentTypedData(p.domain ?? DEV_MINTER_DOMAIN, {
    orderId: p.orderId,
    to: order.to_address,
    bars: bars.map((b) => ({ serial: b.serial, refiner: b.refiner, fineMilliOz: BigInt(b.fine_milli_oz) })),
    deadline: new Date(order.intent_deadline),
  })
  const count =
    p.count ??
    Number(
      BigInt(order.amount_wei) >= DEV_APPROVAL_RULE.largeAmount
        ? DEV_APPROVAL_RULE.approvalsAtOrAbove
        : DEV_APPROVAL_RULE.approvalsBelow,
    )
  const approvers = (await ensureDevApprovers(db)).slice(0, count)
  for (const a of approvers) {
    const signature = await a.key.signTypedData(typedData)
    await db.execute(sql`
      insert into mint_order_signatures (order_id, user_id, signer_address, signature)
      values (${p.orderId}::uuid, ${a.userId}::uuid, ${a.key.address.toLowerCase()}, ${signature})
      on conflict do nothing`)
  }
}

/**
 * A bar list of `vault` holding exactly the bars with these ids (they move onto it:
 * vault_bars.last_list_id, and its members: bar_list_members), signed by the dev custodian (index 12) as it would
 * sign it.
 * Returns the list's id.
 */
export async function insertSignedBarList(
  db: DbOrTx,
  p: { vault: string; barIds: readonly string[]; asOf?: Date; domain?: GoldMinterDomainParameters },
): Promise<string> {
  const bars = await db.execute<{ serial: string; refiner: string; fine_milli_oz: string }>(sql`
    select serial, refiner, (fine_oz * 1000)::bigint::text as fine_milli_oz from vault_bars
    where id = any(${`{${p.barIds.join(',')}}`}::uuid[])`)
  const hashed = bars.map((b) => ({
    serial: b.serial,
    refiner: b.refiner,
    fineWei: BigInt(b.fine_milli_oz) * WEI_PER_MILLI_OZ,
  }))
  // whole seconds, a little in the past: GoldMinter takes a list dated at most an hour ahead of its clock
  const asOf = p.asOf ?? new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000)
  const message = {
    vault: vaultId(p.vault),
    asOf: BigInt(Math.floor(asOf.getTime() / 1000)),
    barsRoot: barsRoot(hashed),
    totalFineWei: totalFineWei(hashed),
  }
  const custodian = devKey('custodian')
  const signature = await custodian.signTypedData(barListTypedData(p.domain ?? DEV_MINTER_DOMAIN, message))
  const [row] = await db.execute<{ id: string }>(sql`
    insert into bar_lists (vault, as_of, content_sha256, bar_count, bars_root, total_fine_wei, custodian_address,
      custodian_signature)
    values (${p.vault}, ${asOf.toISOString()}::timestamptz, ${randomBytes(32).toString('hex')}, ${bars.length},
      ${message.barsRoot}, ${message.totalFineWei.toString()}::numeric, ${custodian.address.toLowerCase()}, ${signature})
    returning id::text as id`)
  if (!row) throw new Error('no bar list')
  await db.execute(sql`
    update vault_bars set last_list_id = ${row.id}::uuid where id = any(${`{${p.barIds.join(',')}}`}::uuid[])`)
  await db.execute(sql`
    insert into bar_list_members (list_id, bar_id)
    select ${row.id}::uuid, unnest(${`{${p.barIds.join(',')}}`}::uuid[])`)
  return row.id
}

/** Binds a dev key to a user as POST /api/me/signing-key would (the binding signature is not checked here). */
export async function bindDevKey(db: DbOrTx, p: { userId: string; key: HDAccount }): Promise<void> {
  await db.execute(sql`
    insert into user_signing_keys (address, user_id, binding_signature)
    values (${p.key.address.toLowerCase()}, ${p.userId}::uuid, '0x') on conflict (address) do nothing`)
}

/**
 * `key`'s EIP-712 signature of the order's MintIntent, rebuilt from its row and bars, as an
 * approver's wallet signs it.
 */
export async function signOrderIntent(
  db: DbOrTx,
  p: { orderId: string; key: HDAccount; domain?: GoldMinterDomainParameters },
): Promise<`0x${string}`> {
  const intent = await readOrderIntent(db, { orderId: p.orderId })
  if (!intent) throw new Error(`no order ${p.orderId}`)
  return p.key.signTypedData(buildMintIntentTypedData(p.domain ?? DEV_MINTER_DOMAIN, intent))
}

/**
 * An order awaiting approval, approved as the approve route would once the dev approvers
 * signed (tests/helpers/approvals.ts signOrderApprovals: 1 below 10,000 oz, 2 at or above):
 * `pending`, approved_by, and its mint_send job added in the same transaction. For worker
 * tests that start from the intake; the worker verifies the signatures itself.
 */
export async function approveWithDevKeys(
  db: Db,
  p: { orderId: string; maxAttempts?: number; transport?: QueueTransport; domain?: GoldMinterDomainParameters },
): Promise<bigint> {
  await signOrderApprovals(db, { orderId: p.orderId, domain: p.domain })
  const [approver] = await ensureDevApprovers(db)
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      update mint_orders set status = 'pending', approved_by = ${approver?.userId ?? null}::uuid, approved_at = now(),
        updated_at = now()
      where id = ${p.orderId}::uuid and status = 'awaiting_approval'`)
    const { jobId } = await enqueueMintSend(tx, {
      transport: p.transport ?? 'postgres',
      orderId: p.orderId,
      maxAttempts: p.maxAttempts ?? 5,
      actor: 'dev-approver@mintdesk.test',
    })
    await tx.execute(sql`update mint_orders set job_id = ${jobId.toString()}::bigint where id = ${p.orderId}::uuid`)
    return jobId
  })
}
