import { z } from 'zod'
import { ConfigError } from '@/lib/errors/config'

/** the local stack's and tests' key for webhook secrets at rest; production refuses it */
export const DEV_WEBHOOK_SECRETS_KEY = '6d696e746465736b2d6465762d6f6e6c792d776562686f6f6b2d6b6579212121'

export type NotificationSettings = {
  /** SMTP_URL (smtp:// or smtps://, credentials in it); undefined: no email is sent (the local stack sets its sink) */
  smtpUrl: string | undefined
  /** MAIL_FROM: the sender of every email */
  mailFrom: string
  /** WEBHOOK_SECRETS_KEY, 32 bytes: seals the endpoints' signing secrets (AES-256-GCM); undefined: webhooks refused */
  secretsKey: Buffer | undefined
  /** NOTIFY_CONCURRENCY: notification jobs one worker runs at once (the rest of its slots stay for mints) */
  concurrency: number
  /** NOTIFY_CLAIM_LEASE_MS: a claim not completed after this long is taken again (a crash mid-send) */
  claimLeaseMs: number
  /** NOTIFY_WEBHOOK_TIMEOUT_MS: a delivery's answer must come within this (10 s, docs/api.md) */
  webhookTimeoutMs: number
  /** NOTIFY_LINK_BASE_URL: the base of the order links in emails; APP_URL when unset */
  linkBaseUrl: string | undefined
}

const schema = z.object({
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL is smtp://user:pass@host:port or smtps://...')
    .optional(),
  MAIL_FROM: z.string().min(3).default('mintdesk <no-reply@mintdesk.local>'),
  WEBHOOK_SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'WEBHOOK_SECRETS_KEY is 32 bytes as 64 hex characters')
    .optional(),
  NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2),
  NOTIFY_CLAIM_LEASE_MS: z.coerce.number().int().min(500).default(30_000),
  NOTIFY_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
  NOTIFY_LINK_BASE_URL: z.string().url().optional(),
  APP_URL: z.string().url().optional(),
})

export type NotificationSettingsParameters = { env: Record<string, string | undefined>; production: boolean }

/**
 * The notification settings, parsed once by lib/config/loadConfig. Dev mode
 * seals webhook secrets with DEV_WEBHOOK_SECRETS_KEY when none is set; production refuses
 * that key, and without a key of its own refuses new subscriptions.
 */
export function notificationSettings({ env, production }: NotificationSettingsParameters): NotificationSettings {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    const vars = parsed.error.issues.map((i) => String(i.path[0]))
    throw new ConfigError(
      vars,
      `invalid configuration: ${parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ')}`,
    )
  }
  const e = parsed.data
  if (production && e.WEBHOOK_SECRETS_KEY?.toLowerCase() === DEV_WEBHOOK_SECRETS_KEY) {
    throw new ConfigError(
      ['WEBHOOK_SECRETS_KEY'],
      'production mode refuses dev defaults: WEBHOOK_SECRETS_KEY (set real values, or MINTDESK_DEV=1 for a local run)',
    )
  }
  const key = e.WEBHOOK_SECRETS_KEY ?? (production ? undefined : DEV_WEBHOOK_SECRETS_KEY)
  return {
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    secretsKey: key === undefined ? undefined : Buffer.from(key, 'hex'),
    concurrency: e.NOTIFY_CONCURRENCY,
    claimLeaseMs: e.NOTIFY_CLAIM_LEASE_MS,
    webhookTimeoutMs: e.NOTIFY_WEBHOOK_TIMEOUT_MS,
    linkBaseUrl: e.NOTIFY_LINK_BASE_URL ?? e.APP_URL,
  }
}
