import { BaseError } from '../../lib/errors/BaseError'

/**
 * Errors of the local stack (scripts/stack: anvil, the local KMS endpoint, the token
 * deploy) and of the release build (scripts/build-release.ts). Their codes map to 500:
 * they stop a dev process, a test or a build, and never reach a client.
 */

/** anvil would not start, or answered something other than the chain it was asked for. */
export class AnvilStartError extends BaseError<'anvil_start_failed'> {
  override name = 'AnvilStartError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('anvil_start_failed', message, options)
  }
}

/** The local KMS endpoint could not listen, or its keys file is unreadable. */
export class KmsServerStartError extends BaseError<'kms_server_start_failed'> {
  override name = 'KmsServerStartError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('kms_server_start_failed', message, options)
  }
}

/** The `__type` values of the AWS KMS JSON protocol that the local endpoint answers with. */
export type KmsErrorType =
  | 'NotFoundException'
  | 'ValidationException'
  | 'UnsupportedOperationException'
  | 'InvalidKeyUsageException'
  | 'MissingAuthenticationTokenException'
  | 'SerializationException'
  | 'UnknownOperationException'
  | 'InvalidMarkerException'
  /** above the Sign rate the endpoint was started with (KMS_LOCAL_SIGN_RATE), as KMS at its quota */
  | 'ThrottlingException'

/**
 * A request the local KMS endpoint refuses, as real KMS would: answered to its KMS
 * client as a 400 with `{ __type: type, message }` (scripts/stack/kms/sendKmsResponse.ts).
 */
export class KmsServiceError extends BaseError<'kms_request_rejected'> {
  override name = 'KmsServiceError'
  readonly type: KmsErrorType
  constructor(type: KmsErrorType, message: string) {
    super('kms_request_rejected', message)
    this.type = type
  }
}

/** The GoldToken could not be deployed, set up or found on the local chain. */
export class DeployTokenError extends BaseError<'deploy_token_failed'> {
  override name = 'DeployTokenError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('deploy_token_failed', message, options)
  }
}

/** A step of the release build failed (next build, a bundle, a missing output). */
export class ReleaseBuildError extends BaseError<'release_build_failed'> {
  override name = 'ReleaseBuildError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('release_build_failed', message, options)
  }
}
