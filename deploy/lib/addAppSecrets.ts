import { type Stack, aws_secretsmanager as secretsmanager } from 'aws-cdk-lib'

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
  return {
    authSecret: new secretsmanager.Secret(stack, 'AuthSecret', {
      description: 'mintdesk AUTH_SECRET (next-auth session signing)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    }),
    metricsToken: new secretsmanager.Secret(stack, 'MetricsToken', {
      description: 'mintdesk METRICS_TOKEN (bearer token of GET /api/metrics)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    }),
    oidcClientSecret: secretsmanager.Secret.fromSecretNameV2(
      stack,
      'OidcClientSecret',
      p.oidcClientSecretName ?? 'mintdesk/oidc-client-secret',
    ),
    rpcUrl: secretsmanager.Secret.fromSecretNameV2(stack, 'RpcUrl', p.rpcUrlSecretName ?? 'mintdesk/rpc-url'),
  }
}
