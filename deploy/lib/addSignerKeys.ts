import { aws_iam as iam, aws_kms as kms, RemovalPolicy, type Stack } from 'aws-cdk-lib'

/**
 * What the key policy lets the account's administrators do with a signing key: manage
 * it, never use it. No kms:Sign, no kms:GetPublicKey, no `kms:*`, `kms:Get*` or
 * kms:CreateGrant (a grant could hand Sign to anyone). Changing this policy itself
 * (kms:PutKeyPolicy) is the break-glass path; CloudTrail records it.
 */
export const KEY_ADMIN_ACTIONS = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:ListAliases',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListResourceTags',
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:UpdateKeyDescription',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:RevokeGrant',
  'kms:RetireGrant',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
]
/** all the worker needs: the public key (its address) and signatures */
export const SIGNER_ACTIONS = ['kms:Sign', 'kms:GetPublicKey']

export type AddSignerKeysParameters = {
  /** one key per name, in the worker's KMS_KEY_IDS order */
  names: string[]
  /** the only principal that may sign: the worker's task role */
  signerRole: iam.IRole
}

/**
 * The mint signing keys in KMS (ECC_SECG_P256K1, SIGN_VERIFY), whose key policy lets
 * only the worker's task role sign or read the public key. A key is retained when its
 * name is removed: a signing key is an on-chain identity, a deploy never deletes one.
 */
export function addSignerKeys(stack: Stack, { names, signerRole }: AddSignerKeysParameters): kms.Key[] {
  if (names.length === 0) throw new Error('signerKeyNames: at least one signing key')
  if (new Set(names).size !== names.length) throw new Error('signerKeyNames: names must be unique')
  return names.map(
    (name) =>
      new kms.Key(stack, `SignerKey-${name}`, {
        description: `mintdesk mint signer ${name} (secp256k1)`,
        keySpec: kms.KeySpec.ECC_SECG_P256K1,
        keyUsage: kms.KeyUsage.SIGN_VERIFY,
        alias: `alias/mintdesk/${name}`,
        removalPolicy: RemovalPolicy.RETAIN,
        policy: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              sid: 'KeyAdministration',
              principals: [new iam.AccountRootPrincipal()],
              actions: KEY_ADMIN_ACTIONS,
              resources: ['*'],
            }),
            new iam.PolicyStatement({
              sid: 'WorkerSigns',
              principals: [new iam.ArnPrincipal(signerRole.roleArn)],
              actions: SIGNER_ACTIONS,
              resources: ['*'],
            }),
          ],
        }),
      }),
  )
}
