// Pure: how a chosen bar-list file is sent to POST /api/admin/vault/bar-lists (docs/api.md,
// Vault inventory). A JSON list names its vault and date itself; a CSV list has only the
// bars, so the form's vault and as-of fields become the ?vault=&asOf= query.

export type BarListImportRequestParameters = {
  fileName: string
  /** the browser's guess (File.type): often empty for .csv, sometimes application/vnd.ms-excel */
  fileType: string
  /** the form's fields, used for a CSV file only */
  vault: string
  asOf: string
}

export type BarListImportRequest =
  | { ok: true; format: 'json' | 'csv'; url: string; contentType: 'application/json' | 'text/csv' }
  | { ok: false; message: string }

const ENDPOINT = '/api/admin/vault/bar-lists'

/** The file's format, from its extension first (browsers disagree on CSV's type), then its type. */
export function barListFormatOf({
  fileName,
  fileType,
}: Pick<BarListImportRequestParameters, 'fileName' | 'fileType'>): 'json' | 'csv' | null {
  const name = fileName.toLowerCase()
  if (name.endsWith('.json')) return 'json'
  if (name.endsWith('.csv')) return 'csv'
  const type = fileType.toLowerCase().split(';')[0]?.trim() ?? ''
  if (type === 'application/json') return 'json'
  if (type === 'text/csv') return 'csv'
  return null
}

export function barListImportRequest(p: BarListImportRequestParameters): BarListImportRequest {
  const format = barListFormatOf(p)
  if (format === null) return { ok: false, message: 'Choose a .json or .csv bar list.' }
  if (format === 'json') return { ok: true, format, url: ENDPOINT, contentType: 'application/json' }
  const vault = p.vault.trim()
  const asOf = p.asOf.trim()
  if (!vault || !asOf) return { ok: false, message: 'A CSV list carries only its bars: give its vault and as-of time.' }
  const query = new URLSearchParams({ vault, asOf })
  return { ok: true, format, url: `${ENDPOINT}?${query.toString()}`, contentType: 'text/csv' }
}
