import { describe, expect, it } from 'vitest'
import { DEV_WEBHOOK_SECRETS_KEY, notificationSettings } from './notificationSettings'

describe('notification settings', () => {
  it('dev mode seals with the dev key; production has no key unless given, and refuses the dev one', () => {
    expect(notificationSettings({ env: {}, production: false }).secretsKey?.toString('hex')).toBe(
      DEV_WEBHOOK_SECRETS_KEY,
    )
    expect(notificationSettings({ env: {}, production: true }).secretsKey).toBeUndefined()
    expect(() =>
      notificationSettings({ env: { WEBHOOK_SECRETS_KEY: DEV_WEBHOOK_SECRETS_KEY }, production: true }),
    ).toThrow(/WEBHOOK_SECRETS_KEY/)
    expect(() => notificationSettings({ env: { WEBHOOK_SECRETS_KEY: 'short' }, production: true })).toThrow(/64 hex/)
  })

  it('defaults: 2 lanes, a 30 s lease, a 10 s timeout; the link base falls back to APP_URL', () => {
    const s = notificationSettings({ env: { APP_URL: 'https://desk.example.com' }, production: false })
    expect(s).toMatchObject({
      concurrency: 2,
      claimLeaseMs: 30_000,
      webhookTimeoutMs: 10_000,
      linkBaseUrl: 'https://desk.example.com',
      smtpUrl: undefined,
    })
    expect(() => notificationSettings({ env: { SMTP_URL: 'http://x' }, production: false })).toThrow(/SMTP_URL/)
  })
})
