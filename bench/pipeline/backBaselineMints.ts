import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { Address } from 'viem'
import * as schema from '../../db/schema'
import type { GoldMinterDomainParameters } from '../../lib/chain/typedData'
import { devKey } from '../../lib/keys/devKeys'
import { buildMintIntentTypedData } from '../../lib/mint/buildMintIntent'
import { readOrderIntent } from '../../lib/web/approvals/readOrderIntent'
import { DEV_STAFF_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { importBarList } from '../../lib/web/vault/importBarList'
import { parseBarList } from '../../lib/web/vault/parseBarList'
import { devCustodianSignature } from '../../scripts/stack/devCustodianSignature'
import { BENCH_LIST_BARS } from '../vault/benchListBars'

export type BackBaselineMintsParameters = {
  /** names the bench vaults, bars and orders: `BENCH-BASE-<label>-<k>` */
  label: string
  /** the baselines' mints: one order each */
  mints: number
  /** the mints' recipients, round-robin */
  recipients: readonly Address[]
  /** GoldMinter's EIP-712 domain (the stack's CHAIN_ID and MINTER_ADDRESS) */
  domain: GoldMinterDomainParameters
}

export type BackBaselineMintsReturnType = { orderIds: string[]; bars: number }

/**
 * The chain baselines (sequential loop, raw limit) relay mints to GoldMinter with keys of
 * their own, outside mintdesk's worker, and each mint needs what the chain asks of one: bars
 * on a custodian-signed list and an approver's signature of its MintIntent. So the bench
 * records them as a desk would: bench bar lists of 400 oz bars signed by the dev custodian
 * (one bar per mint), one confirmed order per mint holding its bar (the inventory's reserves
 * then cover the tokens, and the worker's check before signing lets the pipeline's orders
 * through), and each order's intent signed by the dev approver (key 10, bound to its user by
 * the stack) as its wallet signs it. buildBaselineCalls turns them into attestAndMint calls.
 * Setup, not measured.
 */
export async function backBaselineMints(
  sql: postgres.Sql,
  p: BackBaselineMintsParameters,
): Promise<BackBaselineMintsReturnType> {
  if (p.mints <= 0) return { orderIds: [], bars: 0 }
  const db = drizzle(sql, { schema })
  const approver = devKey('approver')
  const [staff] = await sql<{ id: string }[]>`select id::text as id from users where email = ${DEV_STAFF_EMAIL}`
  if (!staff) throw new Error('the dev staff user is missing')
  const [bound] = await sql<{ user_id: string }[]>`
    select user_id::text as user_id from user_signing_keys where address = ${approver.address.toLowerCase()}`
  if (!bound) throw new Error(`the dev approver key ${approver.address} is bound to no user`)

  const orderIds: string[] = []
  for (let from = 0, k = 0; from < p.mints; from += BENCH_LIST_BARS, k++) {
    const vault = `BENCH-BASE-${p.label}-${k}`
    const bars = Array.from({ length: Math.min(BENCH_LIST_BARS, p.mints - from) }, (_, i) => ({
      serial: `BASE-${p.label}-${from + i}`,
      refiner: 'Valcambi SA',
      year: 2025,
      grossOz: '400.000',
      fineness: '999.99',
    }))
    // whole seconds, a little in the past: GoldMinter takes a list dated at most an hour ahead of its clock
    const asOf = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString()
    const list = parseBarList({ format: 'value', value: { vault, asOf, bars } })
    await importBarList(db, {
      list,
      actor: null,
      metadata: { source: 'npm run bench (baseline mints)', devData: true },
      custodian: await devCustodianSignature(list, p.domain),
    })
    // one confirmed order per bar, holding it
    const made = await sql<{ id: string }[]>`
      with listed as (
        select id, fine_oz, row_number() over (order by serial_key) - 1 as i
        from vault_bars where vault = ${vault} and status = 'available'
      ), orders as (
        insert into mint_orders (to_address, amount_wei, status, vault, receipt_ref, document_sha256, requested_by,
          confirmed_at)
        select (${p.recipients as string[]}::text[])[((${from} + i) % ${p.recipients.length}) + 1],
          (fine_oz * 1000)::bigint * ${(10n ** 15n).toString()}::numeric, 'confirmed', ${vault},
          ${`bench baseline ${p.label}`} || ' #' || (${from} + i), ${'0'.repeat(64)}, ${staff.id}::uuid, now()
        from listed order by i
        returning id, vault, receipt_ref
      ), held as (
        update vault_bars b set status = 'backing', order_id = o.id, updated_at = now()
        from listed l join orders o on o.receipt_ref = ${`bench baseline ${p.label}`} || ' #' || (${from} + l.i)
        where b.id = l.id
        returning o.id as order_id, b.id as bar_id
      )
      insert into mint_order_bars (order_id, bar_id, position)
      select order_id, bar_id, 0 from held
      returning order_id::text as id`
    orderIds.push(...made.map((r) => r.id))
  }

  for (const orderId of orderIds) {
    const intent = await readOrderIntent(db, { orderId })
    if (!intent) throw new Error(`no baseline order ${orderId}`)
    const signature = await approver.signTypedData(buildMintIntentTypedData(p.domain, intent))
    await sql`
      insert into mint_order_signatures (order_id, user_id, signer_address, signature)
      values (${orderId}::uuid, ${bound.user_id}::uuid, ${approver.address.toLowerCase()}, ${signature})`
  }
  return { orderIds, bars: orderIds.length }
}
