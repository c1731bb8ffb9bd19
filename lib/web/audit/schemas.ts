import { z } from 'zod'

/** The zod schemas of the audit routes' query strings. An empty value means "no filter", as a form sends it. */

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional())

export const MAX_AUDIT_PAGE = 200

const time = z
  .string()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), {
    error: 'must be a time: ISO 8601, 2026-12-01 or 2026-12-01T10:00:00Z',
  })
  .transform((v) => new Date(v))

const range = {
  /** rows at or after this time */
  from: optional(time),
  /** rows before this time */
  to: optional(time),
}

/** GET /api/admin/audit?actor=&action=&target=&from=&to=&cursor=&limit= */
export const listAuditQuerySchema = z.object({
  /** the actor's email, or its start */
  actor: optional(z.string().max(320)),
  /** an action (`job.retry`), or a family of them (`job.`, `mint.`) */
  action: optional(z.string().max(64)),
  /** a target type (`order`), or type and id (`order:5b1c...`), or an id alone */
  target: optional(z.string().max(200)),
  ...range,
  /** the seq of the last row of the page before */
  cursor: optional(z.string().regex(/^\d{1,18}$/, { error: 'must be the nextCursor of a page' })),
  limit: optional(z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE)),
})

export type ListAuditQuery = z.output<typeof listAuditQuerySchema>

/** GET /api/admin/audit/export?format=csv|jsonl&from=&to= */
export const exportAuditQuerySchema = z.object({
  format: z.enum(['csv', 'jsonl'], { error: 'must be csv or jsonl' }),
  ...range,
})

export type ExportAuditQuery = z.output<typeof exportAuditQuerySchema>
