import { AUDIT_GENESIS_HASH, type AuditChainRow, auditRowHash } from '@/lib/audit/auditRowHash'

export type AuditChainBreak = {
  /** the first row that does not hold (its seq and id), or where a row is missing */
  seq: string
  id: string
  reason: 'rewritten' | 'unlinked' | 'missing_rows'
  message: string
}

export type VerifyAuditChainReturnType = {
  rows: number
  /** the last row checked: what a later run, or a copy kept elsewhere, can compare with */
  head: { seq: string; hash: string } | null
  broken: AuditChainBreak | null
}

/**
 * Walks audit rows in chain order and names the first that breaks the chain: a row whose fields do not give its
 * hash (rewritten), whose previous hash is not the hash of the row before it (a row before it rewritten, or its
 * link forged), or that does not follow the row before it by one (rows deleted). From the first row (seq 1) the
 * previous hash must be 64 zeros; a walk that starts later (an export from a date) takes the first row's link as
 * given.
 */
export async function verifyAuditChain(
  rows: AsyncIterable<AuditChainRow> | Iterable<AuditChainRow>,
): Promise<VerifyAuditChainReturnType> {
  let count = 0
  let previous: AuditChainRow | null = null
  for await (const row of rows) {
    count++
    const broken = check(row, previous)
    if (broken) return { rows: count, head: previous && { seq: previous.seq, hash: previous.hash }, broken }
    previous = row
  }
  return { rows: count, head: previous && { seq: previous.seq, hash: previous.hash }, broken: null }
}

function check(row: AuditChainRow, previous: AuditChainRow | null): AuditChainBreak | null {
  const at = { seq: row.seq, id: row.id }
  if (previous && BigInt(row.seq) !== BigInt(previous.seq) + 1n)
    return {
      ...at,
      reason: 'missing_rows',
      message: `row ${row.seq} follows row ${previous.seq}: rows ${BigInt(previous.seq) + 1n} to ${BigInt(row.seq) - 1n} are missing`,
    }
  if (!previous && row.seq === '1' && row.prevHash !== AUDIT_GENESIS_HASH)
    return {
      ...at,
      reason: 'unlinked',
      message: 'the first row does not start the chain (its previous hash is not zeros)',
    }
  if (previous && row.prevHash !== previous.hash)
    return { ...at, reason: 'unlinked', message: `row ${row.seq} does not link to row ${previous.seq}'s hash` }
  if (auditRowHash(row) !== row.hash)
    return {
      ...at,
      reason: 'rewritten',
      message: `row ${row.seq} (id ${row.id}) is not what was written: its fields do not give its hash`,
    }
  return null
}
