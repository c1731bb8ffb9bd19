// GET /api/reserves/lookup?address=0x... | ?tx=0x... - the confirmed mints to an address (or in a transaction) and the
// bars backing each (public, no sign-in)
import { route } from '@/lib/web/http/route'
import { listBackedMints } from '@/lib/web/reserves/listBackedMints'
import { reserveLookupQuerySchema } from '@/lib/web/reserves/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const GET = route({
  roles: 'public',
  query: reserveLookupQuerySchema,
  handler: ({ query }) => listBackedMints(getWebDb().db, query),
})
