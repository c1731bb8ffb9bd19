import { type MintRequest, mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import { ValidationError } from '@/lib/web/errors'

/**
 * Validates a mint request (any JSON value) against every rule of docs/api.md. Throws a
 * ValidationError (422 validation_failed) listing each broken rule with its dotted path.
 */
export function parseMintRequest(input: unknown): MintRequest {
  const result = mintRequestSchema.safeParse(input)
  if (result.success) return result.data
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    'The mint request is invalid.',
  )
}
