import { aws_iam as iam, type Stack, aws_secretsmanager as secretsmanager, aws_ses as ses } from 'aws-cdk-lib'
import { acknowledgeNag } from './acknowledgeNag'

export type AddEmailParameters = {
  /**
   * the domain mail is sent from (an SES identity, DKIM records
   * to publish); none: the operator verifies an identity by hand
   */
  mailFromDomain?: string
  /** Secrets Manager name of SMTP_URL, created by the operator (docs/deploy.md) */
  smtpUrlSecretName?: string
}

export type Email = {
  /** SMTP_URL for the worker: smtp://<SES SMTP user>:<SES SMTP password>@email-smtp.<region>.amazonaws.com:587 */
  smtpUrl: secretsmanager.ISecret
  /** WEBHOOK_SECRETS_KEY for the web (seals) and the worker (opens): 32 random bytes as hex, generated here */
  webhookSecretsKey: secretsmanager.Secret
  /** MAIL_FROM */
  mailFrom: string | undefined
  identity: ses.EmailIdentity | undefined
  /**
   * the IAM user whose access key becomes the SES SMTP credentials: it may send raw email from
   * the identity, nothing else; none without mailFromDomain
   */
  smtpUser: iam.User | undefined
}

/**
 * Notifications on AWS: email through SES's SMTP interface and the key that
 * keeps webhook secrets sealed at rest.
 * - an SES domain identity (DKIM) when mailFromDomain is given;
 * - an IAM user allowed ses:SendRawEmail (the SMTP interface's action) from that identity
 *   only, and only when there is one (no mailFromDomain: no user, nothing may send); its
 *   access key is created by the operator and converted to SMTP credentials, so no
 *   credential ever passes through CloudFormation; SMTP_URL holding them is an
 *   operator-created secret given to the worker alone;
 * - WEBHOOK_SECRETS_KEY, generated (64 hex characters), given to the web and the worker.
 */
export function addEmail(stack: Stack, p: AddEmailParameters): Email {
  const identity = p.mailFromDomain
    ? new ses.EmailIdentity(stack, 'MailIdentity', { identity: ses.Identity.domain(p.mailFromDomain) })
    : undefined
  // the SMTP user may send from this one identity, nothing else; no identity, no user
  const smtpUser = identity ? new iam.User(stack, 'SesSmtpUser') : undefined
  smtpUser?.addToPolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendRawEmail'],
      resources: [`arn:${stack.partition}:ses:${stack.region}:${stack.account}:identity/${p.mailFromDomain}`],
    }),
  )
  const webhookSecretsKey = new secretsmanager.Secret(stack, 'WebhookSecretsKey', {
    description: 'mintdesk WEBHOOK_SECRETS_KEY (seals the webhook signing secrets at rest, AES-256-GCM)',
    // 64 characters of 0-9a-f: the 32-byte key as hex
    generateSecretString: {
      passwordLength: 64,
      excludePunctuation: true,
      excludeUppercase: true,
      includeSpace: false,
      excludeCharacters: 'ghijklmnopqrstuvwxyz',
    },
  })
  acknowledgeNag(webhookSecretsKey, {
    id: 'AwsSolutions-SMG4',
    reason:
      "WEBHOOK_SECRETS_KEY seals the webhook endpoints' signing secrets in Postgres (lib/web/notifications/sealSecret.ts: one key, the sealed v1 form names no key): a new value would leave every stored secret unreadable and stop every delivery, so it cannot rotate on a schedule until secrets can be re-sealed. An endpoint's own secret changes by subscribing it anew.",
  })
  return {
    smtpUrl: secretsmanager.Secret.fromSecretNameV2(stack, 'SmtpUrl', p.smtpUrlSecretName ?? 'mintdesk/smtp-url'),
    webhookSecretsKey,
    mailFrom: p.mailFromDomain ? `mintdesk <no-reply@${p.mailFromDomain}>` : undefined,
    identity,
    smtpUser,
  }
}
