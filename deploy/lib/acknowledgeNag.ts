import { type Stack, Validations } from 'aws-cdk-lib'
import type { IConstruct } from 'constructs'

/** One cdk-nag finding accepted on purpose: the rule, why, and for IAM5 the exact wildcards it accepts. */
export type NagAcknowledgment = {
  /** the rule, e.g. `AwsSolutions-SMG4` */
  id: string
  /** why the finding is accepted: what a reviewer needs to agree */
  reason: string
  /** the findings of the rule accepted (IAM4/IAM5: `Resource::*`, `Action::...`); none: the rule as a whole */
  appliesTo?: string[]
}

/**
 * Acknowledges cdk-nag findings on a construct and everything under it, each with its
 * reason: cdk-nag 3's form of v2's `NagSuppressions.addResourceSuppressions` (an
 * `appliesTo` entry becomes the granular id `RULE[finding]`). The acknowledgments are
 * construct metadata (Validations.acknowledge), read by the cdk-nag test
 * (deploy/lib/cdkNag.test.ts), which also fails on one that no longer matches a finding.
 *
 * @example
 * acknowledgeNag(role, {
 *   id: 'AwsSolutions-IAM5',
 *   appliesTo: ['Resource::*'],
 *   reason: 'ecr:GetAuthorizationToken has no resource',
 * })
 */
export function acknowledgeNag(construct: IConstruct, ...acknowledgments: NagAcknowledgment[]): void {
  for (const a of acknowledgments) {
    const ids = a.appliesTo ? a.appliesTo.map((finding) => `${a.id}[${finding}]`) : [a.id]
    for (const id of ids) Validations.of(construct).acknowledge({ id, reason: a.reason })
  }
}

/**
 * How cdk-nag names a wildcard resource in an IAM4/IAM5 finding (`Resource::...`): the
 * resolved value with each Ref as `<Id>` and each Fn::GetAtt as `<Id.Attribute>`, so an
 * acknowledgment names exactly the ARN pattern the policy grants.
 *
 * @example
 * wildcardResource(stack, `${fn.functionArn}:*`) // 'Resource::<MigrateOnEventF4BD2D40.Arn>:*'
 */
export function wildcardResource(stack: Stack, resource: string): string {
  const flat = (v: unknown): string => {
    if (typeof v === 'string') return v
    const o = v as { Ref?: unknown; 'Fn::GetAtt'?: [unknown, unknown]; 'Fn::Join'?: [string, unknown[]] }
    if (o['Fn::Join']) return o['Fn::Join'][1].map(flat).join(o['Fn::Join'][0])
    if (o['Fn::GetAtt']) return `<${flat(o['Fn::GetAtt'][0])}.${flat(o['Fn::GetAtt'][1])}>`
    if (o.Ref !== undefined) return `<${flat(o.Ref)}>`
    return JSON.stringify(v)
  }
  return `Resource::${flat(stack.resolve(resource))}`
}
