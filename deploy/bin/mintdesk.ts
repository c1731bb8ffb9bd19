// The CDK app: one mintdesk environment. No aws-cdk CLI package is installed in the
// repository; deploy with the CLI from npm at the time (docs/deploy.md):
//
//   npx aws-cdk@2 deploy --app "npx tsx deploy/bin/mintdesk.ts" -c certificateArn=arn:aws:acm:... \
//     --parameters ImageTag=$TAG --parameters AppUrl=https://mintdesk.example.com ...
//
// Context (-c key=value, or deploy/cdk.json): certificateArn (required), maxFeePerGasWei
// (required: the worker's fee ceiling in wei per gas; a production worker refuses to start
// without it), maxPriorityFeeWei, stackName, signerKeys (comma-separated names, default
// signer-1), alarmEmail, natGateways.
import { App } from 'aws-cdk-lib'
import { MintdeskStack } from '../lib/MintdeskStack'

const app = new App()
const ctx = (key: string): string | undefined => {
  const v: unknown = app.node.tryGetContext(key)
  return typeof v === 'string' && v !== '' ? v : undefined
}

const certificateArn = ctx('certificateArn')
if (!certificateArn) {
  console.error(
    'context certificateArn is required: -c certificateArn=arn:aws:acm:REGION:ACCOUNT:certificate/ID (docs/deploy.md)',
  )
  process.exit(1)
}

const maxFeePerGasWei = ctx('maxFeePerGasWei')
if (!maxFeePerGasWei || !/^\d{1,30}$/.test(maxFeePerGasWei)) {
  console.error(
    'context maxFeePerGasWei is required: -c maxFeePerGasWei=200000000000 (the fee ceiling, wei per gas; the worker refuses to start without it, docs/deploy.md)',
  )
  process.exit(1)
}

new MintdeskStack(app, ctx('stackName') ?? 'Mintdesk', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: 'mintdesk: web + worker on ECS Fargate, RDS Postgres, KMS signing keys',
  certificateArn,
  signerKeyNames: ctx('signerKeys')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  alarmEmail: ctx('alarmEmail'),
  maxFeePerGasWei,
  maxPriorityFeeWei: ctx('maxPriorityFeeWei'),
  natGateways: ctx('natGateways') !== undefined ? Number(ctx('natGateways')) : undefined,
})

app.synth()
