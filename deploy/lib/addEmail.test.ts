import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { describe, expect, it } from 'vitest'
import { MintdeskStack } from './MintdeskStack'
import { TEST_ENV, TEST_IMAGE_DIGESTS } from './testStackProps'

type Statement = { Effect: string; Action: string | string[]; Resource: unknown }

describe('addEmail: SES and the webhook key (issue 16)', () => {
  const app = new App()
  const stack = new MintdeskStack(app, 'MintdeskEmailTest', {
    certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
    imageDigests: TEST_IMAGE_DIGESTS,
    env: TEST_ENV,
    mailFromDomain: 'mail.example.com',
  })
  const template = Template.fromStack(stack)
  const resources = template.toJSON().Resources as Record<
    string,
    { Type: string; Properties?: Record<string, unknown> }
  >

  it('an SES domain identity, and an SMTP user that may only send raw email from it', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'mail.example.com' })
    const policies = Object.values(resources).filter(
      (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties?.Users ?? '').includes('SesSmtpUser'),
    )
    expect(policies).toHaveLength(1)
    const statements = (policies[0]!.Properties!.PolicyDocument as { Statement: Statement[] }).Statement
    expect(statements.map((s) => s.Action)).toEqual(['ses:SendRawEmail'])
    expect(JSON.stringify(statements[0]?.Resource)).toContain('identity/mail.example.com')
    // no access key in the template: the operator makes it and converts it to SMTP credentials
    expect(Object.values(resources).some((r) => r.Type === 'AWS::IAM::AccessKey')).toBe(false)
  })

  it('WEBHOOK_SECRETS_KEY is generated as 64 hex characters; MAIL_FROM and the link base reach the worker', () => {
    const key = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::SecretsManager::Secret' && String(r.Properties?.Description).includes('WEBHOOK_SECRETS_KEY'),
    )
    expect(key?.Properties?.GenerateSecretString).toMatchObject({
      PasswordLength: 64,
      ExcludeUppercase: true,
      ExcludePunctuation: true,
      ExcludeCharacters: 'ghijklmnopqrstuvwxyz',
    })
    const worker = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ECS::TaskDefinition')
      .flatMap(
        (r) =>
          r.Properties?.ContainerDefinitions as { Name: string; Environment?: { Name: string; Value: unknown }[] }[],
      )
      .find((c) => c.Name === 'worker')
    const env = Object.fromEntries((worker?.Environment ?? []).map((e) => [e.Name, e.Value]))
    expect(env.MAIL_FROM).toBe('mintdesk <no-reply@mail.example.com>')
    expect(env.NOTIFY_LINK_BASE_URL).toBeDefined()
  })
})
