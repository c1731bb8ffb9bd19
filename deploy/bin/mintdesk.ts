// The CDK app: one mintdesk environment. No aws-cdk CLI package is installed in the
// repository; deploy with the CLI from npm at the time (docs/deploy.md):
//
//   npx aws-cdk@2 deploy --app "npx tsx deploy/bin/mintdesk.ts" -c certificateArn=arn:aws:acm:... \
//     -c webImageDigest=sha256:... -c workerImageDigest=sha256:... [-c queueTransport=sqs] \
//     --parameters AppUrl=https://mintdesk.example.com ...
//
// Context (-c key=value, or deploy/cdk.json): the keys of CONTEXT_KEYS in createApp.ts;
// certificateArn and both image digests are required.
import { isBaseError } from '../../lib/errors/BaseError'
import { createApp } from './createApp'

try {
  createApp().app.synth()
} catch (error) {
  if (!isBaseError(error)) throw error
  // a refused context value: say which, without a stack trace
  console.error(error.message)
  process.exit(1)
}
