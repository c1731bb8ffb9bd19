// POST /api/admin/changes/typed-data - { kind, params }: what an admin signs to propose a change that lives on
// chain: a fresh changeId and deadline, its ControlChange as EIP-712 typed data, GoldMinter's admin threshold;
// nothing is written (admin)
import { changeToSign } from '@/lib/web/changes/proposeOnChainChange'
import { changeTypedDataBodySchema } from '@/lib/web/changes/schemas'
import { route } from '@/lib/web/http/route'
import { getMinterReader } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  body: changeTypedDataBodySchema,
  handler: ({ body }) => changeToSign({ kind: body.kind, params: body.params, minter: getMinterReader() }),
})
