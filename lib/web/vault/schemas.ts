import { z } from 'zod'
import { barStatuses } from './apiTypes'
import { LIST_BAR_LISTS_MAX_LIMIT } from './listBarLists'
import { LIST_VAULT_BARS_MAX_LIMIT } from './listVaultBars'

/** The zod schemas of the vault routes' query strings. An empty parameter counts as absent. */

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional())

const text = z.string().max(200, { error: 'must be at most 200 characters' })

const limit = (max: number) =>
  optional(
    z
      .string()
      .regex(/^[0-9]{1,4}$/, { error: `must be a whole number from 1 to ${max}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(1, { error: `must be a whole number from 1 to ${max}` })
          .max(max, { error: `must be a whole number from 1 to ${max}` }),
      ),
  )

/** POST /api/admin/vault/bar-lists?vault=&asOf= (for a CSV body; a JSON body carries both) */
export const importBarListQuerySchema = z.object({ vault: optional(text), asOf: optional(text) })

/** GET /api/admin/vault/bar-lists?vault=&cursor=&limit= */
export const listBarListsQuerySchema = z.object({
  vault: optional(text),
  cursor: optional(z.string().max(512)),
  limit: limit(LIST_BAR_LISTS_MAX_LIMIT),
})

/** GET /api/vault/bars?vault=&status=&q=&cursor=&limit= */
export const listVaultBarsQuerySchema = z.object({
  vault: optional(text),
  status: optional(z.enum(barStatuses, { error: `must be one of ${barStatuses.join(', ')}` })),
  q: optional(z.string().max(64, { error: 'must be at most 64 characters' })),
  cursor: optional(z.string().max(512)),
  limit: limit(LIST_VAULT_BARS_MAX_LIMIT),
})
