import { z } from 'zod'
import { userRole } from '@/db/schema/users'
import { onChainChangeParamsSchemas } from '@/lib/changes/onChainChanges'
import { addRecipientBodySchema, recipientParamsSchema, setMintLimitsBodySchema } from '@/lib/controls/schemas'
import { isUuid } from '@/lib/mint/isUuid'
import { ValidationError } from '@/lib/web/errors/request'

/**
 * THE home of the control changes' kinds and of each kind's params (control_changes.params):
 * one zod schema per kind, the same rules as the route that asks for the change. A stored
 * change is parsed again with it before it is applied (it may have been written by older
 * code). The kinds that live on chain are lib/changes/onChainChanges.ts's, spread in here.
 */
export const controlChangeParamsSchemas = {
  /** POST /api/admin/recipients: `{ address, label }`, the address checksummed */
  'recipient.add': addRecipientBodySchema,
  /** DELETE /api/admin/recipients/{address} */
  'recipient.remove': z.strictObject({ address: recipientParamsSchema.shape.address }),
  /** PUT /api/admin/limits: both limits, fine oz or null (unlimited) */
  'limits.set': setMintLimitsBodySchema,
  /** PATCH /api/admin/users/{userId} with `role` */
  'user.role': z.strictObject({ userId: z.string().refine(isUuid), role: z.enum(userRole.enumValues) }),
  /** POST /api/admin/signing/resume: the stop switch off again, with why */
  'signing.resume': z.strictObject({ reason: z.string().trim().min(1).max(500) }),
  /** the changes that live on chain: POST /api/admin/changes (lib/changes/onChainChanges.ts) */
  ...onChainChangeParamsSchemas,
} as const

export type ControlChangeKind = keyof typeof controlChangeParamsSchemas

export type ControlChangeParams<K extends ControlChangeKind = ControlChangeKind> = z.output<
  (typeof controlChangeParamsSchemas)[K]
>

/** A change as parsed: its kind and its params, typed together. */
export type ParsedControlChange = {
  [K in ControlChangeKind]: { kind: K; params: ControlChangeParams<K> }
}[ControlChangeKind]

export function isControlChangeKind(kind: string): kind is ControlChangeKind {
  return Object.hasOwn(controlChangeParamsSchemas, kind)
}

/**
 * A change's kind and params as stored (or about to be): parsed by its kind's schema.
 * An unknown kind or params that do not parse: a ValidationError (422) naming each issue.
 */
export function parseControlChange(p: { kind: string; params: unknown }): ParsedControlChange {
  if (!isControlChangeKind(p.kind)) {
    throw new ValidationError([{ path: 'kind', message: `unknown control change kind ${p.kind}` }])
  }
  const parsed = controlChangeParamsSchemas[p.kind].safeParse(p.params)
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      'The change is invalid.',
    )
  }
  // the schema was picked by p.kind, so its output is that kind's params; TypeScript does not
  // correlate a union key with the union of the schemas' outputs
  return { kind: p.kind, params: parsed.data } as ParsedControlChange
}
