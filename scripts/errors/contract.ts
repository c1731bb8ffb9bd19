import { BaseError } from '../../lib/errors/BaseError'

/** Errors of the gold token contract's committed artifact (scripts/stack/goldTokenArtifact.ts). */

/** contracts/GoldToken.json is not the compiled GoldToken (wrong contract, no bytecode or source hash). */
export class GoldTokenArtifactError extends BaseError<'gold_token_artifact_invalid'> {
  override name = 'GoldTokenArtifactError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('gold_token_artifact_invalid', message, options)
  }
}
