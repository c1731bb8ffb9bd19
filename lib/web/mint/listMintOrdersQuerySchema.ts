import { z } from 'zod'
import { mintStatuses } from './apiTypes'

// Query of GET /api/gold/mint?status=&cursor=&limit= (strings from the URL). An empty
// parameter counts as absent; anything else that is not valid is a 422.
const emptyAsAbsent = (value: unknown) => (value === '' ? undefined : value)

export const listMintOrdersQuerySchema = z.object({
  status: z.preprocess(
    emptyAsAbsent,
    z.enum(mintStatuses, { error: `must be one of ${mintStatuses.join(', ')}` }).optional(),
  ),
  cursor: z.preprocess(emptyAsAbsent, z.string().max(128, { error: 'is not a valid cursor' }).optional()),
  limit: z.preprocess(
    emptyAsAbsent,
    z
      .string()
      .regex(/^[0-9]{1,3}$/, { error: 'must be a whole number from 1 to 100' })
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(1, { error: 'must be a whole number from 1 to 100' })
          .max(100, { error: 'must be a whole number from 1 to 100' }),
      )
      .optional(),
  ),
})

export type ListMintOrdersQuery = z.output<typeof listMintOrdersQuerySchema>
