import { App, Validations } from 'aws-cdk-lib'
import { AwsSolutionsChecks } from 'cdk-nag'
import type { IConstruct } from 'constructs'
import { describe, expect, it } from 'vitest'
import { MintdeskStack, type MintdeskStackProps } from './MintdeskStack'
import { TEST_STACK_PROPS } from './testStackProps'

// cdk-nag's AWS Solutions rules over the synthesized stack, in npm test: no unacknowledged
// error or warning. Every acknowledgment sits on its construct with its reason
// (deploy/lib/acknowledgeNag.ts), IAM5 only for named wildcards, and each still matches a
// finding: one left behind after its cause was fixed fails here too.

type Finding = { rule: string; path: string; severity: string }
type Acknowledgment = { rule: string; path: string; reason: string }

/** both queue transports, with and without the SES identity: every optional part of the stack */
const CONFIGURATIONS: [string, Partial<MintdeskStackProps>][] = [
  ['postgres, no mail domain', {}],
  ['sqs, mail domain', { queueTransport: 'sqs', mailFromDomain: 'mail.example.com' }],
]

function build(props: Partial<MintdeskStackProps>): App {
  const app = new App()
  new MintdeskStack(app, 'Mintdesk', { ...TEST_STACK_PROPS, signerKeyNames: ['signer-1', 'signer-2'], ...props })
  return app
}

/** what AwsSolutionsChecks reports; with `ignoreAcknowledgments`, every finding the rules make */
function findingsOf(app: App, { ignoreAcknowledgments = false } = {}): Finding[] {
  const pack = new AwsSolutionsChecks(app)
  if (ignoreAcknowledgments) {
    // the pack's private check of the acknowledgments, switched off to see the raw findings
    ;(pack as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false
  }
  return pack
    .validateScope(app)
    .violations.flatMap((v) =>
      v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '', severity: v.severity ?? '' })),
    )
}

/**
 * the cdk-nag acknowledgments under a scope (the CDK acknowledges some of its own rules,
 * CloudFormation-Validate::, in the same metadata)
 */
function acknowledgmentsOf(scope: IConstruct): Acknowledgment[] {
  const own = scope.node.metadata
    .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((m) =>
      Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({
        rule: id.replace(/^annotation::/i, ''),
        path: scope.node.path,
        reason,
      })),
    )
    .filter((a) => a.rule.startsWith('AwsSolutions-'))
  return [...own, ...scope.node.children.flatMap(acknowledgmentsOf)]
}

describe.each(CONFIGURATIONS)('cdk-nag AwsSolutionsChecks (%s)', (_name, props) => {
  const app = build(props)

  it('finds no unacknowledged error or warning', () => {
    expect(findingsOf(app).map((f) => `${f.severity} ${f.rule} ${f.path}`)).toEqual([])
  })

  it('acknowledges each finding on its construct, with a reason, IAM5 and IAM4 only for named findings', () => {
    const acknowledgments = acknowledgmentsOf(app)
    expect(acknowledgments.length).toBeGreaterThan(0)
    for (const a of acknowledgments) {
      expect(a.rule, a.path).toMatch(/^AwsSolutions-[A-Z]+[0-9]+(\[.+\])?$/)
      expect(a.reason.length, `${a.rule} on ${a.path}: a reason a reviewer can check`).toBeGreaterThanOrEqual(40)
      expect(a.path, a.rule).not.toBe('Mintdesk') // on the construct, never the whole stack
      if (/^AwsSolutions-IAM[45]/.test(a.rule)) expect(a.rule, `${a.path}: name the finding`).toMatch(/\[.+\]$/)
    }
  })

  it('has no acknowledgment left without a finding under it', () => {
    const raw = findingsOf(app, { ignoreAcknowledgments: true })
    const stale = acknowledgmentsOf(app).filter(
      (a) => !raw.some((f) => f.rule === a.rule && (f.path === a.path || f.path.startsWith(`${a.path}/`))),
    )
    expect(stale.map((a) => `${a.rule} on ${a.path}`)).toEqual([])
  })
})
