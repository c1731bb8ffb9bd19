import type { AuditChainRow } from '@/lib/audit/auditRowHash'
import { csvCell } from '@/lib/web/csv/csvCell'

/** The export's columns, in order: the row's fields as its hash covers them, then the two hashes. */
export const AUDIT_EXPORT_COLUMNS = [
  'seq',
  'id',
  'at',
  'actorId',
  'actorEmail',
  'action',
  'targetType',
  'targetId',
  'detail',
  'prevHash',
  'hash',
] as const satisfies readonly (keyof AuditChainRow)[]

export function auditCsvHeader(): string {
  return `${AUDIT_EXPORT_COLUMNS.join(',')}\r\n`
}

export function auditCsvLine(row: AuditChainRow): string {
  return `${AUDIT_EXPORT_COLUMNS.map((c) => csvCell(row[c])).join(',')}\r\n`
}

/** One JSON Lines record: the row's fields, `detail` as the JSON text its hash covers. */
export function auditJsonLine(row: AuditChainRow): string {
  return `${JSON.stringify(Object.fromEntries(AUDIT_EXPORT_COLUMNS.map((c) => [c, row[c]])))}\n`
}
