import { expect } from 'vitest'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import type { ApiControlChangeAccepted } from '@/lib/web/changes/apiTypes'
import { signInAs } from '@/tests/helpers/fakeSession'
import { routeParams, routeRequest } from '@/tests/helpers/routeTest'

// TEST ONLY: the second admin's half of a control change (docs/api.md "Control changes need
// a second admin"), through the real confirm route, for route tests whose first half is the
// route under test. Requires the fake session (tests/helpers/fakeSession) in the test file.

type ConfirmRoute = { POST: (req: Request, ctx: { params: Promise<{ changeId: string }> }) => Promise<Response> }

export type ConfirmChangeParameters = {
  /** app/api/admin/changes/[changeId]/confirm/route, imported after startRouteTest */
  confirmRoute: ConfirmRoute
  /** the answer of the route that asked for the change: 202 { changeId, status } */
  asked: Response
  /** the second admin; the session is theirs afterwards */
  confirmer: SessionUser
}

/** Expects `asked` to be a change awaiting a second admin, confirms it as `confirmer`, returns the answer. */
export async function confirmChange({ confirmRoute, asked, confirmer }: ConfirmChangeParameters): Promise<Response> {
  expect(asked.status, await asked.clone().text()).toBe(202)
  const { changeId, status } = (await asked.json()) as ApiControlChangeAccepted
  expect(status).toBe('awaiting_second_admin')
  signInAs(confirmer)
  return confirmRoute.POST(
    routeRequest(`/api/admin/changes/${changeId}/confirm`, { method: 'POST' }),
    routeParams({ changeId }),
  )
}
