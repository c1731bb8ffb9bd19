import { z } from 'zod'

/** One audit row as GET /api/admin/audit lists it: its fields, its detail as JSON, its place in the hash chain. */
export const auditEntrySchema = z
  .object({
    seq: z.string(),
    id: z.string(),
    /** UTC with microseconds, as the hash covers it */
    at: z.string(),
    actorId: z.string().nullable(),
    actorEmail: z.string(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string(),
    detail: z.unknown().nullable(),
    prevHash: z.string(),
    hash: z.string(),
  })
  .meta({ id: 'AuditEntry' })

/** GET /api/admin/audit */
export const auditPageSchema = z.object({ items: z.array(auditEntrySchema), nextCursor: z.string().nullable() })

export type ApiAuditEntry = z.infer<typeof auditEntrySchema>
export type ApiAuditPage = z.infer<typeof auditPageSchema>
