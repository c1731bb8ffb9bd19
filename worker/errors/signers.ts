import { WorkerError } from './jobs'

/** Errors about the signing keys and their rows. */

export class NoSignerError extends WorkerError {
  override name = 'NoSignerError'
  constructor(chainId: number) {
    super(`no active signer on chain ${chainId} among this worker's KMS keys`)
  }
}

/** A signers row that does not match the KMS key or chain this worker was given. */
export class SignerConflictError extends WorkerError {
  override name = 'SignerConflictError'
}
