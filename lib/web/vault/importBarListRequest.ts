import type { Db } from '@/db/client'
import { InvalidSignatureError } from '@/lib/errors/approvals'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { RawBody } from '@/lib/web/http/openTextBody'
import type { ApiBarListImport } from './apiTypes'
import { chainCustodianSignature } from './chainCustodianSignature'
import { importBarList } from './importBarList'
import type { OnImportProgress } from './importProgress'
import { readBarList } from './readBarList'

export type ImportBarListRequestParameters = {
  req: Request
  user: SessionUser
  /** a CSV's vault and as-of time (a JSON list names its own) */
  query: { vault?: string; asOf?: string }
  rawBody: RawBody | undefined
  /** GoldMinter's reader, asked for once the list is read (a body that is not a list needs no chain) */
  minter: () => MinterReader
  production: boolean
  onProgress?: OnImportProgress
}

/**
 * POST /api/admin/vault/bar-lists: the body read as a bar list as it streams in (JSON, or
 * CSV with the query's vault and as-of time), then its Custodian-Signature checked and the
 * list imported (importBarList). The list is read first: a body that is not a list answers
 * as such, signed or not.
 */
export async function importBarListRequest(db: Db, p: ImportBarListRequestParameters): Promise<ApiBarListImport> {
  const chunks = p.rawBody?.chunks ?? []
  const declared = p.req.headers.get('content-length')
  const totalBytes = declared && /^\d+$/.test(declared.trim()) ? Number(declared.trim()) : null
  const list = await (p.rawBody?.mediaType === 'text/csv'
    ? readBarList({
        format: 'csv',
        chunks,
        vault: p.query.vault,
        asOf: p.query.asOf,
        totalBytes,
        onProgress: p.onProgress,
      })
    : readBarList({ format: 'json', chunks, totalBytes, onProgress: p.onProgress }))
  const signature = p.req.headers.get('custodian-signature')
  if (!signature) throw new InvalidSignatureError('The Custodian-Signature header is missing.')
  const custodian = chainCustodianSignature({ signature, minter: p.minter(), production: p.production })
  return importBarList(db, {
    list,
    actor: { id: p.user.id, email: p.user.email },
    custodian,
    onProgress: p.onProgress,
  })
}
