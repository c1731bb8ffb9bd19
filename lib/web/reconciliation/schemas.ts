import { z } from 'zod'

/** POST /api/admin/reconciliation/{id}/resolve: the unreconciled event's id (a positive integer) */
export const unreconciledEventParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, 'a positive integer')
    .transform((s) => BigInt(s)),
})

/** what the admin found and did about the event, kept in the row and in the audit */
export const resolveUnreconciledBodySchema = z.object({ note: z.string().trim().min(1).max(500) }).strict()

const signerSchema = z.object({
  address: z.string(),
  dbNonce: z.number().int(),
  chainNonce: z.number().int().nullable(),
  state: z.enum(['in_sync', 'resync_needed', 'in_flight', 'unknown']),
})

const unreconciledSchema = z.object({
  id: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  event: z.string(),
  orderId: z.string().optional(),
  amount: z.string().nullable(),
  blockNumber: z.number().int(),
  reason: z.string(),
  detectedAt: z.string(),
})

/** GET /api/admin/reconciliation's answer */
export const reconciliationSchema = z.object({
  signers: z.array(signerSchema),
  unreconciled: z.array(unreconciledSchema),
  resolved: z.array(unreconciledSchema.extend({ resolvedAt: z.string(), resolvedBy: z.string(), note: z.string() })),
  cursorBlock: z.number().int().nullable(),
  chain: z.object({ available: z.boolean(), error: z.string().nullable() }),
})

/** POST /api/admin/reconciliation/{id}/resolve's answer: the event, resolved */
export const resolvedEventSchema = z.object({
  id: z.string(),
  resolvedAt: z.string(),
  resolvedBy: z.string(),
  note: z.string(),
})

export type ApiReconciliation = z.infer<typeof reconciliationSchema>
export type ApiReconciliationSigner = z.infer<typeof signerSchema>
export type ApiUnreconciledEvent = z.infer<typeof unreconciledSchema>
export type ApiResolvedEvent = z.infer<typeof resolvedEventSchema>
