import type { Metadata } from 'next'
import Link from 'next/link'
import { AuditTable } from '@/components/admin/audit/AuditTable'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { PageHeading } from '@/components/ui/PageHeading'
import { listAudit } from '@/lib/web/audit/listAudit'
import { listAuditQuerySchema } from '@/lib/web/audit/schemas'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { getWebDb } from '@/lib/web/webProcess'

export const metadata: Metadata = { title: 'Audit' }
export const dynamic = 'force-dynamic'

type SearchParams = Record<string, string | string[] | undefined>
const FILTERS = ['actor', 'action', 'target', 'from', 'to'] as const

/**
 * /admin/audit (admin, auditor): the audit log newest first, filtered by actor, action, target and time (a plain GET
 * form: the URL is the filter), in keyset pages, and the export of a window as CSV or JSON Lines with each row's
 * chained hash (GET /api/admin/audit, GET /api/admin/audit/export).
 */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdminReader()
  const params = await searchParams
  const given = Object.fromEntries(
    [...FILTERS, 'cursor'].map((k) => [k, typeof params[k] === 'string' ? params[k] : undefined]),
  ) as Record<(typeof FILTERS)[number] | 'cursor', string | undefined>
  const parsed = listAuditQuerySchema.safeParse(given)
  const page = parsed.success ? await listAudit(getWebDb().db, parsed.data) : null
  const keep = (extra: Record<string, string>) => {
    const q = new URLSearchParams()
    for (const k of FILTERS) if (given[k]) q.set(k, given[k] ?? '')
    for (const [k, v] of Object.entries(extra)) q.set(k, v)
    return q.toString()
  }
  const window = new URLSearchParams()
  if (given.from) window.set('from', given.from)
  if (given.to) window.set('to', given.to)
  return (
    <div className="space-y-6">
      <PageHeading title="Audit">
        Every action taken on the desk, who took it and when. Each row carries a hash over the row before it, so a
        rewritten or deleted row shows: <code className="text-xs">npm run audit:verify</code> walks the chain, and does
        the same for an export.
      </PageHeading>
      <Card>
        <CardHeader>
          <CardTitle>Filter</CardTitle>
          <CardDescription>
            An actor&apos;s email or its start; an action (job.retry) or a family (job.); a target type, type:id, or an
            id; times in UTC (2026-12-01 or 2026-12-01T10:00:00Z).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form method="get" aria-label="Filter the audit log" className="grid gap-3 sm:grid-cols-5">
            {FILTERS.map((k) => (
              <div key={k}>
                <Label htmlFor={`audit-${k}`}>
                  {k === 'from' ? 'From' : k === 'to' ? 'To' : k[0]?.toUpperCase() + k.slice(1)}
                </Label>
                <Input id={`audit-${k}`} name={k} defaultValue={given[k] ?? ''} autoComplete="off" spellCheck={false} />
              </div>
            ))}
            <div className="flex gap-2 sm:col-span-5">
              <Button type="submit">Show</Button>
              <Link href="/admin/audit" className="self-center text-sm">
                Clear
              </Link>
              <span className="ml-auto self-center text-sm">
                Export {given.from || given.to ? 'this window' : 'everything'}:{' '}
                <a href={`/api/admin/audit/export?${new URLSearchParams([...window, ['format', 'csv']])}`}>CSV</a>
                {' · '}
                <a href={`/api/admin/audit/export?${new URLSearchParams([...window, ['format', 'jsonl']])}`}>
                  JSON Lines
                </a>
              </span>
            </div>
          </form>
        </CardContent>
      </Card>
      {parsed.success ? null : (
        <Alert tone="error" title="The filter cannot be read.">
          {parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}
        </Alert>
      )}
      {page ? (
        <Card>
          <CardContent className="p-0">
            <AuditTable items={page.items} />
          </CardContent>
          {page.nextCursor ? (
            <CardContent className="border-t border-stone-100">
              <Link href={`/admin/audit?${keep({ cursor: page.nextCursor })}`}>Older rows</Link>
            </CardContent>
          ) : null}
        </Card>
      ) : null}
    </div>
  )
}
