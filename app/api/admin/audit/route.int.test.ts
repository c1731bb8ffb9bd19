import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { recordAudit } from '@/lib/admin/recordAudit'
import type { ApiAuditPage } from '@/lib/web/audit/responseSchemas'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertUser } from '@/tests/helpers/users'
import { workerProgram } from '@/tests/helpers/workerProcess'

// GET /api/admin/audit and its export through the real route wrapper, domain code and database (as the web's role);
// only the session is faked. The export is then checked offline by `audit-verify --file`, as an auditor would.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }))
vi.mock('@/lib/web/auth/getSessionUser', () => ({
  getSessionUser: async () => session.user,
  getSessionClaims: async () => null,
}))

const ORIGIN = 'http://mintdesk.test'
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..')
type Handler = (req: Request) => Promise<Response>

let t: TestDatabase
let auditor: SessionUser
let staff: SessionUser
let routes: { list: Handler; exportRows: Handler }

beforeAll(async () => {
  t = await createTestDatabase()
  process.env.DATABASE_URL = t.roleUrl('web')
  process.env.APP_URL = ORIGIN
  delete process.env.RPC_URL
  const a = await insertUser(t.db, 'auditor')
  const s = await insertUser(t.db, 'staff')
  auditor = { id: a.id, email: a.email, role: 'auditor' }
  staff = { id: s.id, email: s.email, role: 'staff' }
  const actors = [
    { id: '00000000-0000-4000-8000-000000000001', email: 'alice@mintdesk.test' },
    { id: '00000000-0000-4000-8000-000000000002', email: 'bob@mintdesk.test' },
  ]
  for (let i = 0; i < 30; i++)
    await recordAudit(t.db, {
      actor: actors[i % 2] as (typeof actors)[number],
      action: i % 3 === 0 ? 'job.retry' : i % 3 === 1 ? 'job.cancel' : 'recipient.add',
      targetType: i % 3 === 2 ? 'recipient' : 'job',
      targetId: String(i),
      // a cell a spreadsheet would run, and a comma
      detail: { note: i === 5 ? '=HYPERLINK("http://evil","x")' : `row ${i}, fine` },
    })
  routes = {
    list: (await import('./route')).GET,
    exportRows: (await import('./export/route')).GET,
  }
}, 60_000)

afterAll(async () => {
  const { getWebDb } = await import('@/lib/web/webProcess')
  await getWebDb().close()
  await t?.drop()
})

const get = (route: Handler, query: string) => route(new Request(`${ORIGIN}/api/admin/audit${query}`))

describe('GET /api/admin/audit', () => {
  it('an auditor pages through it newest first; filters by actor, action family and target', async () => {
    session.user = auditor
    const first = (await (await get(routes.list, '?limit=12')).json()) as ApiAuditPage
    expect(first.items.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => String(30 - i)))
    expect(first.nextCursor).toBe('19')
    const rest = (await (await get(routes.list, `?limit=50&cursor=${first.nextCursor}`)).json()) as ApiAuditPage
    expect(rest.items).toHaveLength(18)
    expect(rest.nextCursor).toBeNull()

    const bob = (await (await get(routes.list, '?actor=BOB@')).json()) as ApiAuditPage
    expect(bob.items).toHaveLength(15)
    expect(new Set(bob.items.map((r) => r.actorEmail))).toEqual(new Set(['bob@mintdesk.test']))
    const jobs = (await (await get(routes.list, '?action=job.')).json()) as ApiAuditPage
    expect(jobs.items).toHaveLength(20)
    const one = (await (await get(routes.list, '?target=recipient:2')).json()) as ApiAuditPage
    expect(one.items.map((r) => [r.action, r.targetId])).toEqual([['recipient.add', '2']])
    expect(one.items[0]?.detail).toEqual({ note: 'row 2, fine' })
    const none = (await (await get(routes.list, '?from=2999-01-01')).json()) as ApiAuditPage
    expect(none.items).toEqual([])
  })

  it('refuses a bad filter with 422 and staff with 403', async () => {
    session.user = auditor
    const bad = await get(routes.list, '?from=yesterday&cursor=x')
    expect(bad.status).toBe(422)
    const body = (await bad.json()) as { error: { code: string; issues: { path: string }[] } }
    expect(body.error.code).toBe('validation_failed')
    expect(body.error.issues.map((i) => i.path).sort()).toEqual(['cursor', 'from'])
    session.user = staff
    expect((await get(routes.list, '')).status).toBe(403)
    expect((await get(routes.exportRows, '/export?format=csv')).status).toBe(403)
  })
})

describe('GET /api/admin/audit/export', () => {
  it('CSV: a header and every row oldest first, a formula cell defused', async () => {
    session.user = auditor
    const res = await get(routes.exportRows, '/export?format=csv')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="mintdesk-audit-.*\.csv"$/)
    const lines = (await res.text()).split('\r\n').filter((l) => l !== '')
    expect(lines[0]).toBe('seq,id,at,actorId,actorEmail,action,targetType,targetId,detail,prevHash,hash')
    expect(lines).toHaveLength(31)
    expect(lines[1]?.startsWith('1,')).toBe(true)
    // the detail is JSON text, never a cell that begins with =
    for (const line of lines.slice(1)) expect(line.split(',').some((cell) => /^[=+\-@]/.test(cell))).toBe(false)
  })

  it('JSON Lines: the chain checks offline with audit-verify --file, and a rewritten line is named', async () => {
    session.user = auditor
    const res = await get(routes.exportRows, '/export?format=jsonl')
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    const text = await res.text()
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-export-'))
    const verify = (file: string) =>
      spawnSync(process.execPath, [...workerProgram('audit-verify'), '--file', file], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      })
    writeFileSync(path.join(dir, 'audit.jsonl'), text)
    const ok = verify(path.join(dir, 'audit.jsonl'))
    expect(ok.status, ok.stderr).toBe(0)
    expect(ok.stdout).toContain('the audit chain holds: 30 rows')
    const lines = text.trimEnd().split('\n')
    const row = JSON.parse(lines[9] ?? '{}') as { actorEmail: string }
    lines[9] = JSON.stringify({ ...row, actorEmail: 'mallory@mintdesk.test' })
    writeFileSync(path.join(dir, 'tampered.jsonl'), `${lines.join('\n')}\n`)
    const bad = verify(path.join(dir, 'tampered.jsonl'))
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('the audit chain is broken at row 10')
  }, 60_000)
})
