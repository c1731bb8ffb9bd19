import { type Stack, aws_secretsmanager as secretsmanager } from 'aws-cdk-lib'
import { acknowledgeNag } from './acknowledgeNag'

export type AddAppSecretsParameters = {
  /** Secrets Manager names of the secrets the operator creates before the first deploy */
  oidcClientSecretName?: string
  rpcUrlSecretName?: string
}

export type AppSecrets = {
  authSecret: secretsmanager.ISecret
  metricsToken: secretsmanager.ISecret
  oidcClientSecret: secretsmanager.ISecret
  rpcUrl: secretsmanager.ISecret
}

/**
 * The app's secrets in Secrets Manager: AUTH_SECRET and METRICS_TOKEN generated here,
 * the OIDC client secret and the RPC URL created by the operator (docs/deploy.md).
 */
export function addAppSecrets(stack: Stack, p: AddAppSecretsParameters): AppSecrets {
  const authSecret = new secretsmanager.Secret(stack, 'AuthSecret', {
    description: 'mintdesk AUTH_SECRET (next-auth session signing)',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  })
  acknowledgeNag(authSecret, {
    id: 'AwsSolutions-SMG4',
    reason:
      'AUTH_SECRET encrypts the session cookies and the web reads one value at task start: a scheduled rotation would leave running tasks on the old key and split the sessions between tasks. It is rotated by hand (docs/deploy.md): put a new value, force a new deployment of the web; everyone signs in again.',
  })
  const metricsToken = new secretsmanager.Secret(stack, 'MetricsToken', {
    description: 'mintdesk METRICS_TOKEN (bearer token of GET /api/metrics)',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  })
  acknowledgeNag(metricsToken, {
    id: 'AwsSolutions-SMG4',
    reason:
      'METRICS_TOKEN is shared with the Prometheus scraper, which keeps it in its own configuration: a rotation here would break scraping until someone updates the scraper. It is rotated by hand with the scraper (docs/deploy.md), then the web is redeployed.',
  })
  return {
    authSecret,
    metricsToken,
    oidcClientSecret: secretsmanager.Secret.fromSecretNameV2(
      stack,
      'OidcClientSecret',
      p.oidcClientSecretName ?? 'mintdesk/oidc-client-secret',
    ),
    rpcUrl: secretsmanager.Secret.fromSecretNameV2(stack, 'RpcUrl', p.rpcUrlSecretName ?? 'mintdesk/rpc-url'),
  }
}
