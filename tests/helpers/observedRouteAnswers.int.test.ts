import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { ApiOperation } from '@/lib/web/openapi/ApiOperation'
import { apiOperations } from '@/lib/web/openapi/apiOperations'
import { buildOpenApiDocument, type OpenApiDocument } from '@/lib/web/openapi/buildOpenApiDocument'
import { userListSchema, userSchema } from '@/lib/web/users/responseSchemas'
import type { ReceivedAnswer } from '@/tests/helpers/documentedAnswers'
import { signInAs } from '@/tests/helpers/fakeSession'
import { takeObservedAnswers } from '@/tests/helpers/observedRouteAnswers'
import {
  assertRecordedAnswersDocumented,
  type RecordedAnswers,
  recordAnswers,
  takeRecordedAnswers,
} from '@/tests/helpers/recordedRouteAnswers'
import { type RouteTest, routeRequest, startRouteTest } from '@/tests/helpers/routeTest'

// The check of every route answer a test receives (vitest.config.ts: tests/setup/observeRouteHandlers.ts wraps the
// handlers a test imports, tests/setup/recordRouteAnswers.ts records what they answered into the run's folder,
// tests/routeAnswers/recordedRouteAnswers.test.ts checks the run's answers once): real handlers answer through the
// real wrapper and database, the answers are recorded without the test calling anything, the test still reads its
// bodies, they come back from the folder as they were given, and copies of the document with a planted drift fail the
// check, naming the test file and the route.
vi.mock('@/lib/web/auth/getSessionUser', () => import('@/tests/helpers/fakeSession').then((m) => m.fakeSessionModule))

let route: RouteTest
let answers: ReceivedAnswer[] = []
let recorded: RecordedAnswers[] = []
const document = buildOpenApiDocument()
const FILE = 'tests/helpers/observedRouteAnswers.int.test.ts'
const folder = mkdtempSync(path.join(os.tmpdir(), 'mintdesk-route-answers-'))

/** A copy of the document built with the operation at `method path` changed by `change`. */
const drifted = (method: ApiOperation['method'], path: string, change: (op: ApiOperation) => ApiOperation) =>
  buildOpenApiDocument({
    operations: apiOperations.map((op) => (op.method === method && op.path === path ? change(op) : op)),
  })

beforeAll(async () => {
  route = await startRouteTest()
  const users = await import('@/app/api/admin/users/route')
  const exported = await import('@/app/api/admin/audit/export/route')
  await takeObservedAnswers()

  signInAs(route.u.admin)
  const list = await users.GET(routeRequest('/api/admin/users'))
  // the test reads the body the check read too
  expect(((await list.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0)
  const csv = await exported.GET(routeRequest('/api/admin/audit/export?format=csv'))
  expect(await csv.text()).toMatch(/^seq,/)
  signInAs(null)
  const anonymous = await users.GET(routeRequest('/api/admin/users'))
  expect(anonymous.status).toBe(401)
  answers = await takeObservedAnswers()
  recordAnswers(folder, { file: FILE, answers })
  recorded = takeRecordedAnswers(folder)
})

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true })
  await route?.close()
})

describe('every answer of a route handler in a test is checked against the OpenAPI document', () => {
  it('records each answer the test received: operation, status, media type, and the JSON body (a stream unread)', () => {
    expect(answers.map((a) => [a.method, a.path, a.status, a.contentType?.split(';')[0]])).toEqual([
      ['get', '/api/admin/users', 200, 'application/json'],
      ['get', '/api/admin/audit/export', 200, 'text/csv'],
      ['get', '/api/admin/users', 401, 'application/json'],
    ])
    expect(answers[0]?.body).toMatchObject({
      items: expect.arrayContaining([expect.objectContaining({ role: 'admin' })]),
    })
    expect(answers[1]?.bodyUnread).toBe(true)
    expect(answers[2]?.body).toMatchObject({ error: { code: 'unauthenticated' } })
  })

  it("reads them back from the run's folder as they were recorded, once: the folder is left empty", () => {
    expect(recorded).toEqual([{ file: FILE, answers: JSON.parse(JSON.stringify(answers)) }])
    expect(readdirSync(folder)).toEqual([])
    expect(takeRecordedAnswers(folder)).toEqual([])
  })

  it('passes the answers as the document describes them', async () => {
    await expect(assertRecordedAnswersDocumented(document, recorded)).resolves.toBeUndefined()
  })

  it('fails on a required field renamed in a copy of the response schema', async () => {
    const renamed = z.object({ items: z.array(userSchema.omit({ email: true }).extend({ emailAddress: z.string() })) })
    const copy = drifted('get', '/api/admin/users', (op) => ({ ...op, success: { ...op.success, schema: renamed } }))
    await expect(assertRecordedAnswersDocumented(copy, recorded)).rejects.toThrow(
      /tests\/helpers\/observedRouteAnswers\.int\.test\.ts: get \/api\/admin\/users 200 items\.0\.emailAddress/,
    )
  })

  it('fails on a status the route answers removed from a copy of the document', async () => {
    const copy = structuredClone(document) as OpenApiDocument
    delete copy.paths?.['/api/admin/users']?.get?.responses?.['401']
    await expect(assertRecordedAnswersDocumented(copy, recorded)).rejects.toThrow(
      `${FILE}: get /api/admin/users: no response 401`,
    )
  })

  it('fails on another media type for a stream, and on an operation the document lacks', async () => {
    const json = drifted('get', '/api/admin/audit/export', (op) => ({
      ...op,
      success: { ...op.success, schema: userListSchema, mediaType: undefined },
    }))
    await expect(assertRecordedAnswersDocumented(json, recorded)).rejects.toThrow(
      `${FILE}: get /api/admin/audit/export 200: text/csv, documented application/json`,
    )
    const gone = buildOpenApiDocument({
      operations: apiOperations.filter((op) => !(op.method === 'get' && op.path === '/api/admin/users')),
    })
    await expect(assertRecordedAnswersDocumented(gone, recorded)).rejects.toThrow(
      `${FILE}: no operation get /api/admin/users`,
    )
  })

  it('names a problem once, with every test file that received the answer', async () => {
    const copy = structuredClone(document) as OpenApiDocument
    delete copy.paths?.['/api/admin/users']?.get?.responses?.['401']
    const twice = [...recorded, { file: 'app/api/admin/users/route.int.test.ts', answers }]
    const failure = await assertRecordedAnswersDocumented(copy, twice).catch((e: Error) => e.message)
    expect(failure).toMatch(/^1 route answer\(s\) not as the OpenAPI document/)
    expect(failure).toContain(`app/api/admin/users/route.int.test.ts, ${FILE}: get /api/admin/users: no response 401`)
  })
})
