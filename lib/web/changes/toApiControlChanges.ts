import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import type { controlChanges } from '@/db/schema/controlChanges'
import { users } from '@/db/schema/users'
import type { ApiControlChange } from './apiTypes'
import { isControlChangeKind, type ParsedControlChange, parseControlChange } from './controlChangeParams'
import { describeControlChange } from './describeControlChange'

type ControlChangeRow = typeof controlChanges.$inferSelect

/**
 * Rows of control_changes as the API answers them, each with its summary (a `user.role`
 * change names its user by email: one query for all of them). A row whose params no longer
 * parse (written by other code) is shown with its kind as its summary.
 */
export async function toApiControlChanges(db: DbOrTx, rows: readonly ControlChangeRow[]): Promise<ApiControlChange[]> {
  const parsed = rows.map((row) => parseStored(row))
  const userIds = [...new Set(parsed.flatMap((c) => (c?.kind === 'user.role' ? [c.params.userId] : [])))]
  const emails = new Map<string, string>()
  if (userIds.length > 0) {
    const found = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds))
    for (const u of found) emails.set(u.id, u.email)
  }
  return rows.map((row, i) => {
    const change = parsed[i]
    return {
      changeId: row.id,
      kind: row.kind,
      params: paramsOf(row.params),
      summary: change
        ? describeControlChange({
            change,
            userEmail: change.kind === 'user.role' ? (emails.get(change.params.userId) ?? null) : undefined,
          })
        : row.kind,
      status: row.status,
      requestedBy: row.authorEmail,
      requestedAt: row.createdAt.toISOString(),
      decidedBy: row.decidedByEmail,
      decidedAt: row.decidedAt?.toISOString() ?? null,
      reason: row.reason,
      deadline: row.deadline?.toISOString() ?? null,
      txHash: row.txHash,
      failureReason: row.failureReason,
    }
  })
}

function parseStored(row: ControlChangeRow): ParsedControlChange | null {
  if (!isControlChangeKind(row.kind)) return null
  try {
    return parseControlChange({ kind: row.kind, params: row.params })
  } catch {
    return null
  }
}

type ParamValue = ApiControlChange['params'][string]

/** The stored params as answered: every kind's are one flat object of scalars; anything else is left out. */
function paramsOf(value: unknown): ApiControlChange['params'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, ParamValue] => isScalar(e[1])))
}

function isScalar(value: unknown): value is ParamValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}
