import { sql } from 'drizzle-orm'
import type { Address, PublicClient } from 'viem'
import type { DbOrTx } from '@/db/client'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { ozToWei } from '@/lib/money/ozToWei'
import { formatOz } from '@/lib/reserves/formatOz'
import type { ApiAttestationBar, ApiAttestationBarList, ApiAttestationPack } from './apiTypes'

export type ReadAttestationPackParameters = {
  /** a read-only chain client that can read state at past blocks (an archive node for old ones) */
  chain: PublicClient
  chainId: number
  tokenAddress: Address
  /** the attested block: at or below the chain's head (the caller checks) */
  blockNumber: bigint
}

export type ReadAttestationPackReturnType = ApiAttestationPack

/**
 * The attestation pack of one block (docs/decisions/061-attestation-pack.md): the block's number, hash and time and
 * the token's totalSupply at that block, read from the chain; then from the desk's records, as they stood at the block:
 * - the bar list in force for each vault: the newest by asOf among the lists imported at or before the block's
 *   timestamp, with its custodian signature, root and signed total;
 * - the backing bars: bars of mint orders confirmed now whose mint was mined at or before the block, that no burn
 *   mined at or before the block (and not before the mint) took out, and that their vault's list in force has
 *   (bar_list_members);
 * - the totals: supply, backing, their difference, covered or shortfall.
 * Nothing in it depends on when it is read, once the block is past the confirmations: the same block gives the same
 * pack. The order of lists and bars is left to renderAttestationPack, which writes the pack's bytes.
 */
export async function readAttestationPack(
  db: DbOrTx,
  p: ReadAttestationPackParameters,
): Promise<ReadAttestationPackReturnType> {
  const [block, supplyWei] = await Promise.all([
    p.chain.getBlock({ blockNumber: p.blockNumber }),
    p.chain.readContract({
      address: p.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'totalSupply',
      blockNumber: p.blockNumber,
    }),
  ])
  const at = new Date(Number(block.timestamp) * 1000).toISOString()
  const inForce = sql`
    select distinct on (l.vault) l.id, l.vault, l.as_of, l.imported_at, l.bars_root, l.total_fine_wei,
      l.custodian_address, l.custodian_signature, l.bar_count
    from bar_lists l
    where l.imported_at <= ${at}::timestamptz
    order by l.vault, l.as_of desc, l.imported_at desc, l.id desc`
  const [lists, bars] = await Promise.all([
    db.execute<{
      id: string
      vault: string
      as_of: string
      imported_at: string
      bars_root: string | null
      total_fine_wei: string | null
      custodian_address: string | null
      custodian_signature: string | null
      bar_count: number
      members: number
    }>(sql`
      with lists as (${inForce})
      select l.id::text as id, l.vault, ${isoUtc(sql`l.as_of`)} as as_of, ${isoUtc(sql`l.imported_at`)} as imported_at,
        l.bars_root, l.total_fine_wei::text as total_fine_wei, l.custodian_address, l.custodian_signature, l.bar_count,
        (select count(*)::int from bar_list_members m where m.list_id = l.id) as members
      from lists l`),
    db.execute<{
      vault: string
      serial: string
      refiner: string
      fine_oz: string
      order_id: string
      tx_hash: string
      block_number: string
    }>(sql`
      with lists as (${inForce})
      select b.vault, b.serial, b.refiner, b.fine_oz::text as fine_oz, o.id::text as order_id, o.tx_hash,
        o.block_number::text as block_number
      from mint_orders o
      join mint_order_bars ob on ob.order_id = o.id
      join vault_bars b on b.id = ob.bar_id
      join lists l on l.vault = b.vault
      join bar_list_members m on m.list_id = l.id and m.bar_id = b.id
      where o.status = 'confirmed' and o.block_number <= ${p.blockNumber.toString()}::bigint
        and not exists (
          select 1 from redemption_bars rb join redemptions r on r.id = rb.redemption_id
          where rb.bar_id = b.id and r.status = 'burned'
            and r.block_number <= ${p.blockNumber.toString()}::bigint and r.block_number >= o.block_number)`),
  ])
  const barLists = lists.map(
    (l): ApiAttestationBarList => ({
      vault: l.vault,
      listId: l.id,
      asOf: l.as_of,
      importedAt: l.imported_at,
      barsRoot: l.bars_root,
      totalFineOz: l.total_fine_wei === null ? null : formatOz(BigInt(l.total_fine_wei)),
      signer: l.custodian_address,
      custodianSignature: l.custodian_signature,
      barCount: l.bar_count,
      membersRecorded: l.members,
    }),
  )
  let backingWei = 0n
  const backing = bars.map((b): ApiAttestationBar => {
    backingWei += ozToWei(b.fine_oz)
    return {
      vault: b.vault,
      serial: b.serial,
      refiner: b.refiner,
      fineOz: b.fine_oz,
      orderId: b.order_id,
      txHash: b.tx_hash,
      blockNumber: b.block_number,
    }
  })
  const supply = formatOz(supplyWei)
  return {
    kind: 'mintdesk.reserves-attestation',
    version: 1,
    chainId: p.chainId,
    tokenAddress: p.tokenAddress,
    block: { number: block.number.toString(), hash: block.hash, timestamp: at },
    totalSupply: supply,
    barLists,
    bars: backing,
    totals: {
      totalSupply: supply,
      backingFineOz: formatOz(backingWei),
      differenceOz: formatOz(supplyWei - backingWei),
      status: supplyWei <= backingWei ? 'covered' : 'shortfall',
    },
  }
}

/** A timestamptz as ISO 8601 in UTC with milliseconds, as every time of the API. */
function isoUtc(column: ReturnType<typeof sql>) {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}
