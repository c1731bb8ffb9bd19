import { Token } from 'aws-cdk-lib'
import { ConfigError } from '../../lib/errors/config'

/**
 * An image's content address in ECR: `sha256:` and 64 lowercase hex digits (`docker buildx
 * imagetools inspect`, `aws ecr describe-images`).
 */
export const IMAGE_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/

export type ImageDigests = {
  /** the `web` target of the Dockerfile, pushed to the web repository */
  web: string
  /** the `worker` target (the worker service and the migration task) */
  worker: string
}

/**
 * Refuses anything but an image digest: a tag (`latest`, a commit) can be pushed again
 * and would then run other code under the same task definition; a digest cannot. A
 * token (a CloudFormation parameter) is refused too: the value must be known at synth.
 *
 * @example
 * assertImageDigest('webImageDigest', 'sha256:3f2a...') // returns it
 * assertImageDigest('webImageDigest', 'latest') // throws, naming webImageDigest
 */
export function assertImageDigest(name: string, value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new ConfigError(
      [name],
      `${name} is required: the image's digest (sha256:<64 hex>), not a tag (docs/deploy.md)`,
    )
  }
  if (Token.isUnresolved(value) || !IMAGE_DIGEST_PATTERN.test(value)) {
    throw new ConfigError(
      [name],
      `${name} must be an image digest (sha256:<64 hex>), got ${JSON.stringify(value)}: a tag is mutable, deploy by digest (docs/deploy.md)`,
    )
  }
  return value
}
