import type { ImageDigests } from './imageDigest'

// What the deploy tests synthesize with: a certificate ARN and image digests of the right
// shape (nothing is looked up: synthesis is offline).

export const TEST_CERTIFICATE_ARN =
  'arn:aws:acm:eu-west-1:111111111111:certificate/00000000-0000-0000-0000-000000000000'

export const TEST_IMAGE_DIGESTS: ImageDigests = {
  web: `sha256:${'a1'.repeat(32)}`,
  worker: `sha256:${'b2'.repeat(32)}`,
}

/** a region, as `cdk deploy` always gives one (CDK_DEFAULT_REGION): the ALB's access logs need it */
export const TEST_ENV = { region: 'eu-west-1' }

/** the props every test stack needs */
export const TEST_STACK_PROPS = {
  certificateArn: TEST_CERTIFICATE_ARN,
  imageDigests: TEST_IMAGE_DIGESTS,
  env: TEST_ENV,
}
