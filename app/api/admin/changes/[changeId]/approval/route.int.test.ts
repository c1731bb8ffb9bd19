import { randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildControlChangeTypedData } from '@/lib/changes/controlChangeIntent'
import type { ParsedOnChainChange } from '@/lib/changes/onChainChanges'
import { devKey } from '@/lib/keys/devKeys'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ApiChangeToSign, ApiControlChangeAccepted } from '@/lib/web/changes/apiTypes'
import { changeApprovalSchema } from '@/lib/web/changes/responseSchemas'
import { getMinterReader } from '@/lib/web/webProcess'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { bindDevKey } from '@/tests/helpers/approvals'
import type { TestDatabase } from '@/tests/helpers/db'
import { signInAs } from '@/tests/helpers/fakeSession'
import { errorOf, type RouteTest, routeParams, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'
import { insertUser, type TestUsers } from '@/tests/helpers/users'

// GET /api/admin/changes/{changeId}/approval, through the real route, wrapper and database (the web's role) and
// GoldMinter on anvil: what a second admin signs to confirm a change that lives on chain. Only the session is faked.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

type Routes = {
  approval: typeof import('./route')
  typedData: typeof import('../../typed-data/route')
  changes: typeof import('../../route')
  recipients: typeof import('@/app/api/admin/recipients/route')
}

let t: TestDatabase
let u: TestUsers
let auditor: SessionUser
let approver: SessionUser
let r: Routes
let route: RouteTest
let chain: ChainFixture

beforeAll(async () => {
  chain = await startChainFixture()
  // the web's view of the chain (lib/web/webProcess.ts getMinterReader)
  process.env.RPC_URL = chain.rpcUrl
  process.env.CHAIN_ID = String(chain.chainId)
  process.env.MINTER_ADDRESS = chain.minterAddress
  route = await startRouteTest()
  t = route.t
  u = route.u
  auditor = { ...(await insertUser(t.db, 'auditor')), role: 'auditor' }
  approver = { ...(await insertUser(t.db, 'approver')), role: 'approver' }
  // the dev setup's first admin key of GoldMinter, bound to the desk's admin
  await bindDevKey(t.db, { userId: u.admin.id, key: devKey('admin') })
  r = {
    approval: await import('./route'),
    typedData: await import('../../typed-data/route'),
    changes: await import('../../route'),
    recipients: await import('@/app/api/admin/recipients/route'),
  }
})

afterAll(async () => {
  await route?.close()
  await chain?.stop()
})

const approval = (changeId: string) =>
  r.approval.GET(routeRequest(`/api/admin/changes/${changeId}/approval`), routeParams({ changeId }))

/** An on-chain change the admin proposed through the routes: its typed data, then the change with their signature. */
async function proposeOnChain(change: ParsedOnChainChange): Promise<ApiChangeToSign> {
  signInAs(u.admin)
  const res = await r.typedData.POST(routeRequest('/api/admin/changes/typed-data', { method: 'POST', body: change }))
  expect(res.status, await res.clone().text()).toBe(200)
  const toSign = (await res.json()) as ApiChangeToSign
  const signature = await devKey('admin').signTypedData(
    buildControlChangeTypedData(getMinterReader().domain, {
      changeId: toSign.changeId,
      change,
      deadline: new Date(toSign.deadline),
    }),
  )
  const proposed = await r.changes.POST(
    routeRequest('/api/admin/changes', {
      method: 'POST',
      body: { ...change, changeId: toSign.changeId, deadline: toSign.deadline, signature },
    }),
  )
  expect(proposed.status, await proposed.clone().text()).toBe(202)
  expect(((await proposed.json()) as ApiControlChangeAccepted).changeId).toBe(toSign.changeId)
  return toSign
}

describe('GET /api/admin/changes/{changeId}/approval', () => {
  it("answers an on-chain change's typed data, GoldMinter's threshold and the signatures so far, to admins and auditors", async () => {
    const toSign = await proposeOnChain({
      kind: 'approver.add',
      params: { address: privateKeyToAddress(generatePrivateKey()) },
    })
    for (const who of [u.admin, auditor]) {
      signInAs(who)
      const res = await approval(toSign.changeId)
      expect(res.status, await res.clone().text()).toBe(200)
      const body = changeApprovalSchema.strict().parse(await res.json())
      // the typed data the author signed, again: the second admin signs the same ControlChange
      expect(body.typedData).toEqual(toSign.typedData)
      expect(body.required).toBe(toSign.required)
      expect(body.signatures).toEqual([
        { signer: devKey('admin').address, user: u.admin.email, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) },
      ])
    }
  })

  it('refuses staff and approvers (403), and answers no one signed out (401)', async () => {
    const { changeId } = await proposeOnChain({
      kind: 'approver.add',
      params: { address: privateKeyToAddress(generatePrivateKey()) },
    })
    for (const who of [u.staff, approver]) {
      signInAs(who)
      expect(await errorOf(await approval(changeId)), who.role).toMatchObject({ status: 403, code: 'forbidden' })
    }
    signInAs(null)
    expect(await errorOf(await approval(changeId))).toMatchObject({ status: 401, code: 'unauthenticated' })
  })

  it("404 for an unknown change, an id that is no uuid, and a change of the desk's own rows (nothing to sign)", async () => {
    signInAs(u.admin)
    const asked = await r.recipients.POST(
      routeRequest('/api/admin/recipients', {
        method: 'POST',
        body: { address: privateKeyToAddress(generatePrivateKey()), label: 'Desk row' },
      }),
    )
    expect(asked.status, await asked.clone().text()).toBe(202)
    const deskChange = ((await asked.json()) as ApiControlChangeAccepted).changeId
    for (const changeId of [randomUUID(), 'not-a-uuid', deskChange])
      expect(await errorOf(await approval(changeId)), changeId).toMatchObject({ status: 404, code: 'not_found' })
  })
})
