// POST /api/admin/vault/bar-lists - import a custodian's bar list (JSON, or text/csv with
// ?vault=&asOf=), up to 20 MiB, parsed as it streams in, its Custodian-Signature verified; audited (admin)
// GET /api/admin/vault/bar-lists?vault=&cursor=&limit= - the lists imported, newest first, with their counts (admin)

import { InvalidSignatureError } from '@/lib/errors/approvals'
import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { route } from '@/lib/web/http/route'
import { BAR_LIST_LIMITS } from '@/lib/web/vault/barListLimits'
import { chainCustodianSignature } from '@/lib/web/vault/chainCustodianSignature'
import { importBarList } from '@/lib/web/vault/importBarList'
import { listBarLists } from '@/lib/web/vault/listBarLists'
import { readBarList } from '@/lib/web/vault/readBarList'
import { importBarListQuerySchema, listBarListsQuerySchema } from '@/lib/web/vault/schemas'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  query: importBarListQuerySchema,
  rawBody: { mediaTypes: ['application/json', 'text/csv'] },
  maxBodyBytes: BAR_LIST_LIMITS.maxBodyBytes,
  handler: async ({ req, user, query, rawBody }) => {
    const chunks = rawBody?.chunks ?? []
    const list = await (rawBody?.mediaType === 'text/csv'
      ? readBarList({ format: 'csv', chunks, vault: query.vault, asOf: query.asOf })
      : readBarList({ format: 'json', chunks }))
    // the list is read first: a body that is not a list answers as such, signed or not
    const signature = req.headers.get('custodian-signature')
    if (!signature) throw new InvalidSignatureError('The Custodian-Signature header is missing.')
    const custodian = chainCustodianSignature({
      signature,
      minter: getMinterReader(),
      production: getConfig('web').production,
    })
    return json(await importBarList(getWebDb().db, { list, actor: { id: user.id, email: user.email }, custodian }), 201)
  },
})

export const GET = route({
  roles: ADMIN_READERS,
  query: listBarListsQuerySchema,
  handler: ({ query }) => listBarLists(getWebDb().db, query),
})
