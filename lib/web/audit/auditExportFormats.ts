import type { AuditChainRow } from '@/lib/audit/auditRowHash'

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

/**
 * One CSV cell: RFC 4180 (quoted when it holds a comma, a quote or a line break; quotes doubled), and against
 * formula injection a text that begins with =, +, -, @, a tab or a carriage return gets a ' before it, as does one
 * that begins with ' (so a reader removes exactly one leading ' to get the text back). Null is empty.
 */
export function csvCell(value: string | null): string {
  if (value === null) return ''
  const safe = /^[=+\-@\t\r']/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

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
