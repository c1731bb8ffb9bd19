import { aws_events as events, aws_iam as iam, type aws_kms as kms, type Stack, type aws_sns as sns } from 'aws-cdk-lib'

/** key policy and grant changes on a signing key: each could hand kms:Sign to another principal */
export const KEY_POLICY_CHANGE_EVENTS = ['PutKeyPolicy', 'CreateGrant']

export type AddSignerKeyAlertsParameters = {
  /** the signing keys (addSignerKeys) */
  keys: kms.IKey[]
  /** the only principal that may sign: the worker's task role */
  signerRole: iam.IRole
  /** where the matched CloudTrail events are sent (the alarms' topic) */
  topic: sns.ITopic
}

export type SignerKeyAlerts = { keyPolicyChanges: events.Rule; foreignSigns: events.Rule }

const cloudTrailKms = {
  source: ['aws.kms'],
  detailType: ['AWS API Call via CloudTrail'],
}

/**
 * The account root may change a signing key's policy (KEY_ADMIN_ACTIONS: the break-glass
 * path, so the keys can never be locked out), so it could grant itself or anyone kms:Sign.
 * It cannot do so in silence: EventBridge rules on KMS's CloudTrail management events
 * send the event itself (who, from where, the new policy or grant) to the alarms' topic
 * for
 * - PutKeyPolicy and CreateGrant on a signing key, made or attempted by anyone;
 * - Sign with a signing key by any principal but the worker's task role: an assumed
 *   role other than it (`anything-but` its ARN), or a principal that is not an assumed
 *   role at all (an IAM user, the root: no session issuer). Refused attempts included.
 *
 * KMS logs Sign as a read-only management event; the Sign rule's state,
 * ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS, makes EventBridge match read-only
 * events too. CloudTrail delivers these events to EventBridge on a best-effort basis,
 * in the key's region (docs/security.md).
 */
export function addSignerKeyAlerts(stack: Stack, p: AddSignerKeyAlertsParameters): SignerKeyAlerts {
  const keyArns = p.keys.map((k) => k.keyArn)
  // the topic itself, without CDK's SnsTopic target: that one would allow every EventBridge
  // rule (of any account) to publish; the statement below allows these two rules only
  const target: events.IRuleTarget = { bind: () => ({ arn: p.topic.topicArn }) }
  const keyPolicyChanges = new events.Rule(stack, 'SignerKeyPolicyChangeRule', {
    description: 'mintdesk: a signing key policy was changed or a grant created (either could hand out kms:Sign)',
    eventPattern: {
      ...cloudTrailKms,
      detail: {
        eventSource: ['kms.amazonaws.com'],
        eventName: KEY_POLICY_CHANGE_EVENTS,
        resources: { ARN: keyArns },
      },
    },
    targets: [target],
  })
  const workerRoleArn = p.signerRole.roleArn
  const foreignSigns = new events.Rule(stack, 'SignerKeyForeignSignRule', {
    description: "mintdesk: kms:Sign with a signing key by a principal other than the worker's task role",
    eventPattern: {
      ...cloudTrailKms,
      detail: {
        eventSource: ['kms.amazonaws.com'],
        eventName: ['Sign'],
        resources: { ARN: keyArns },
        $or: [
          { userIdentity: { sessionContext: { sessionIssuer: { arn: [{ 'anything-but': workerRoleArn }] } } } },
          { userIdentity: { sessionContext: { sessionIssuer: { arn: [{ exists: false }] } } } },
        ],
      },
    },
    targets: [target],
  })
  // Sign is a read-only management event: without this state EventBridge may not match it
  ;(foreignSigns.node.defaultChild as events.CfnRule).state = 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS'
  p.topic.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'SignerKeyAlertsPublish',
      principals: [new iam.ServicePrincipal('events.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [p.topic.topicArn],
      conditions: { ArnEquals: { 'aws:SourceArn': [keyPolicyChanges.ruleArn, foreignSigns.ruleArn] } },
    }),
  )
  return { keyPolicyChanges, foreignSigns }
}
