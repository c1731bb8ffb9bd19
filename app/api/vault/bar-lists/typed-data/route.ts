// POST /api/vault/bar-lists/typed-data - the EIP-712 typed data a custodian signs for a bar list
// (the same body as POST /api/admin/vault/bar-lists: JSON, or text/csv with ?vault=&asOf=); admin

import { route } from '@/lib/web/http/route'
import type { ApiBarListTypedData } from '@/lib/web/vault/apiTypes'
import { BAR_LIST_LIMITS } from '@/lib/web/vault/barListLimits'
import { barListMessageTypedData } from '@/lib/web/vault/barListMessage'
import { readBarList } from '@/lib/web/vault/readBarList'
import { importBarListQuerySchema } from '@/lib/web/vault/schemas'
import { getMinterReader } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  query: importBarListQuerySchema,
  rawBody: { mediaTypes: ['application/json', 'text/csv'] },
  maxBodyBytes: BAR_LIST_LIMITS.maxBodyBytes,
  handler: async ({ query, rawBody }): Promise<ApiBarListTypedData> => {
    const chunks = rawBody?.chunks ?? []
    const list = await (rawBody?.mediaType === 'text/csv'
      ? readBarList({ format: 'csv', chunks, vault: query.vault, asOf: query.asOf })
      : readBarList({ format: 'json', chunks }))
    const typed = barListMessageTypedData(getMinterReader().domain, list)
    const m = typed.message
    return {
      domain: { ...typed.domain, chainId: String(typed.domain.chainId) },
      types: { BarList: typed.types.BarList.map((f) => ({ ...f })) },
      primaryType: typed.primaryType,
      message: {
        vault: m.vault,
        asOf: m.asOf.toString(),
        barsRoot: m.barsRoot,
        totalFineWei: m.totalFineWei.toString(),
      },
    }
  },
})
