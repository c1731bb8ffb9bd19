// POST /api/admin/vault/bar-lists - import a custodian's bar list (JSON, or text/csv with
// ?vault=&asOf=), up to 20 MiB, parsed as it streams in, its Custodian-Signature verified; audited (admin).
// With Accept: application/x-ndjson the answer is its progress, a line per step, then the result
// GET /api/admin/vault/bar-lists?vault=&cursor=&limit= - the lists imported, newest first, with their counts (admin)

import { ADMIN_READERS } from '@/lib/web/auth/SessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { json } from '@/lib/web/http/json'
import { acceptsNdjson, ndjsonProgressResponse } from '@/lib/web/http/ndjsonProgressResponse'
import { route } from '@/lib/web/http/route'
import { BAR_LIST_LIMITS } from '@/lib/web/vault/barListLimits'
import { importBarListRequest } from '@/lib/web/vault/importBarListRequest'
import type { OnImportProgress } from '@/lib/web/vault/importProgress'
import { listBarLists } from '@/lib/web/vault/listBarLists'
import { importBarListQuerySchema, listBarListsQuerySchema } from '@/lib/web/vault/schemas'
import { getMinterReader, getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  query: importBarListQuerySchema,
  rawBody: { mediaTypes: ['application/json', 'text/csv'] },
  maxBodyBytes: BAR_LIST_LIMITS.maxBodyBytes,
  handler: async ({ req, user, query, rawBody }) => {
    const run = (onProgress?: OnImportProgress) =>
      importBarListRequest(getWebDb().db, {
        req,
        user,
        query,
        rawBody,
        minter: getMinterReader,
        production: getConfig('web').production,
        onProgress,
      })
    if (!acceptsNdjson(req)) return json(await run(), 201)
    return ndjsonProgressResponse({
      run: async (progress) => ({ status: 201, body: await run(progress) }),
      // the client may still be sending: the rest is read and thrown away, so it gets the result line
      onError: async () => {
        for await (const _ of rawBody?.chunks ?? []);
      },
    })
  },
})

export const GET = route({
  roles: ADMIN_READERS,
  query: listBarListsQuerySchema,
  handler: ({ query }) => listBarLists(getWebDb().db, query),
})
