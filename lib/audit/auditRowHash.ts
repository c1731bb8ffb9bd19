import { createHash } from 'node:crypto'

/** An audit row as its export gives it (docs/api.md "Audit"): every field as text, as the hash covers it. */
export type AuditChainRow = {
  /** its place in the chain, from 1 */
  seq: string
  id: string
  /** UTC with microseconds: 2026-12-04T19:00:00.123456Z */
  at: string
  actorId: string | null
  actorEmail: string
  action: string
  targetType: string
  targetId: string
  /** the detail's JSON text exactly as stored (Postgres's jsonb text), or null */
  detail: string | null
  prevHash: string
  hash: string
}

/** the hash before the first row */
export const AUDIT_GENESIS_HASH = '0'.repeat(64)

/**
 * An audit row's hash, as the database's audit_row_hash writes it (db/functions/audit_row_hash.sql): sha256, in
 * lower-case hex, of its fields each as `<UTF-8 bytes>:<text>\n` (null as empty), in order: the previous hash, seq,
 * at, actor id, actor email, action, target type, target id, detail.
 */
export function auditRowHash(row: Omit<AuditChainRow, 'hash' | 'id'>): string {
  const fields = [
    row.prevHash,
    row.seq,
    row.at,
    row.actorId ?? '',
    row.actorEmail,
    row.action,
    row.targetType,
    row.targetId,
    row.detail ?? '',
  ]
  const hash = createHash('sha256')
  for (const f of fields) hash.update(`${Buffer.byteLength(f, 'utf8')}:${f}\n`, 'utf8')
  return hash.digest('hex')
}
