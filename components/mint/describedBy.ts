import type { FieldErrors } from './mintFormModel'

export type DescribedByParameters = {
  /** the id of the field's error message, named only while the field has an error */
  errorId: string
  /** the field's issue path ('to', 'vaultProof.vault', ...) */
  path: string
  /** a hint always named (the amount's check against the bars) */
  hintId?: string
}

/** The field's aria-describedby: its error message while it has one, and its hint. */
export function describedBy(errors: FieldErrors, { errorId, path, hintId }: DescribedByParameters): string | undefined {
  return [errors[path] ? errorId : null, hintId].filter(Boolean).join(' ') || undefined
}
