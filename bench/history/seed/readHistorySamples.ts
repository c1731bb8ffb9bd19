import type postgres from 'postgres'

export type HistorySamples = {
  confirmedOrderIds: string[]
  failedOrderId: string
  confirmedJobIds: string[]
  deadJobId: string
  recipient: string
  txHash: string
  barSerial: string
  endpointId: string
  auditTargetOrderId: string
  staffUserId: string
  adminUserId: string
}

/** The ids a measured run reads, found again in a seeded database: orders spread over the year, one of each kind. */
export async function readHistorySamples(sql: postgres.Sql): Promise<HistorySamples> {
  const confirmed = await sql<{ id: string; job_id: string }[]>`
    select id::text, job_id::text from mint_orders
    where receipt_ref in (select 'VR-' || g from (select count(*)::int as n from mint_orders) c,
      generate_series(1, c.n, greatest(1, c.n / 60)) g)
      and status = 'confirmed'
    limit 20`
  const [failed] = await sql<{ id: string }[]>`
    select id::text from mint_orders where status = 'failed' order by created_at desc limit 1`
  const [dead] = await sql<{ job_id: string }[]>`select job_id::text from job_records where state = 'dead' limit 1`
  // a recipient and a transaction of a mint whose bar backs it, as the public lookup finds them
  const [tx] = await sql<{ to_address: string; tx_hash: string; serial: string }[]>`
    select o.to_address, o.tx_hash, b.serial from vault_bars b join mint_orders o on o.id = b.order_id
    where b.status = 'backing' order by b.serial desc limit 1`
  const bar = tx
  const [audit] = await sql<{ target_id: string }[]>`
    select target_id from audit_log where target_type = 'order' order by chain_seq limit 1`
  if (confirmed.length === 0 || !failed || !dead || !tx || !bar || !audit)
    throw new Error('the history seed left a table empty')
  return {
    confirmedOrderIds: confirmed.map((r) => r.id),
    failedOrderId: failed.id,
    confirmedJobIds: confirmed.map((r) => r.job_id),
    deadJobId: dead.job_id,
    recipient: tx.to_address,
    txHash: tx.tx_hash,
    barSerial: bar.serial,
    endpointId: '00000000-0000-4000-8000-000000000301',
    auditTargetOrderId: audit.target_id,
    staffUserId: '00000000-0000-4000-8000-000000000001',
    adminUserId: '00000000-0000-4000-8000-000000000200',
  }
}
