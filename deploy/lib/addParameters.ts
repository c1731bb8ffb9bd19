import { CfnParameter, type Stack } from 'aws-cdk-lib'

export type StackParameters = {
  appUrl: CfnParameter
  chainId: CfnParameter
  tokenAddress: CfnParameter
  minterAddress: CfnParameter
  tokenDeployBlock: CfnParameter
  confirmations: CfnParameter
  oidcIssuer: CfnParameter
  oidcClientId: CfnParameter
}

/** The deploy-time parameters (`--parameters Name=value`): synthesis needs none of them. */
export function addParameters(stack: Stack): StackParameters {
  return {
    appUrl: new CfnParameter(stack, 'AppUrl', {
      type: 'String',
      description: "The app's public origin, e.g. https://mintdesk.example.com (a DNS name for the ALB)",
      allowedPattern: '^https://[^/]+$',
    }),
    chainId: new CfnParameter(stack, 'ChainId', { type: 'Number', description: 'EVM chain id' }),
    tokenAddress: new CfnParameter(stack, 'TokenAddress', {
      type: 'String',
      description: 'The deployed GoldToken',
      allowedPattern: '^0x[0-9a-fA-F]{40}$',
    }),
    minterAddress: new CfnParameter(stack, 'MinterAddress', {
      type: 'String',
      description: "The deployed GoldMinter: the sole holder of the token's roles; approvals are signed for it",
      allowedPattern: '^0x[0-9a-fA-F]{40}$',
    }),
    tokenDeployBlock: new CfnParameter(stack, 'TokenDeployBlock', {
      type: 'Number',
      description:
        "The block GoldToken was deployed in: the worker's chain followers read the chain's events from there on their first start",
      minValue: 0,
    }),
    confirmations: new CfnParameter(stack, 'Confirmations', { type: 'Number', default: 3, minValue: 1 }),
    oidcIssuer: new CfnParameter(stack, 'OidcIssuer', {
      type: 'String',
      description: 'OIDC issuer URL',
      allowedPattern: '^https://.+$',
    }),
    oidcClientId: new CfnParameter(stack, 'OidcClientId', {
      type: 'String',
      description: 'OIDC client id',
      minLength: 1,
    }),
  }
}
