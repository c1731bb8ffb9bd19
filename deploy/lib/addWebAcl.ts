import { type aws_elasticloadbalancingv2 as elbv2, type Stack, aws_wafv2 as wafv2 } from 'aws-cdk-lib'

/**
 * The public, unauthenticated paths whose every request costs RPC calls (the proof of
 * reserve: app/api/reserves/route.ts, app/api/reserves/lookup/route.ts and the page
 * app/(public)/reserves/page.tsx read the chain): rate-limited per source IP.
 */
export const RATE_LIMITED_PATH_PREFIXES = ['/api/reserves', '/reserves']
/** requests per source IP within RESERVES_RATE_WINDOW_SECONDS on those paths; above it WAF answers 429 */
export const RESERVES_RATE_LIMIT = 100
export const RESERVES_RATE_WINDOW_SECONDS = 300
/**
 * Rules of AWS's common rule set that count instead of block, each with why:
 * SizeRestrictions_BODY blocks bodies over 8 KB, and the desk posts larger ones on purpose
 * (a mint with its bars, up to 64 KiB; a custodian's bar list, up to 20 MiB): the app
 * bounds every body itself (lib/web/http/parseJsonBody.ts, 413).
 */
export const COMMON_RULES_COUNTED = ['SizeRestrictions_BODY']

export type AddWebAclParameters = { loadBalancer: elbv2.IApplicationLoadBalancer }

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
})

/**
 * A WAFv2 web ACL on the load balancer: a rate-based rule per source IP on the public
 * reserves paths (RATE_LIMITED_PATH_PREFIXES, matched on the URL-decoded, normalized,
 * lowercased path, so `/%72eserves` or `//API/Reserves` count too), then AWS's managed
 * common rule set. Everything else is allowed through to the app, which does its own
 * authentication, roles and throttling.
 */
export function addWebAcl(stack: Stack, p: AddWebAclParameters): wafv2.CfnWebACL {
  const pathStartsWith = (prefix: string): wafv2.CfnWebACL.StatementProperty => ({
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint: 'STARTS_WITH',
      searchString: prefix,
      textTransformations: [
        { priority: 0, type: 'URL_DECODE' },
        { priority: 1, type: 'NORMALIZE_PATH' },
        { priority: 2, type: 'LOWERCASE' },
      ],
    },
  })
  const acl = new wafv2.CfnWebACL(stack, 'WebAcl', {
    scope: 'REGIONAL',
    description: 'mintdesk: rate limit on the public reserves paths, AWS common rules',
    defaultAction: { allow: {} },
    visibilityConfig: visibility('mintdesk-web-acl'),
    rules: [
      {
        name: 'ReservesRateLimitPerIp',
        priority: 0,
        action: { block: { customResponse: { responseCode: 429 } } },
        statement: {
          rateBasedStatement: {
            aggregateKeyType: 'IP',
            limit: RESERVES_RATE_LIMIT,
            evaluationWindowSec: RESERVES_RATE_WINDOW_SECONDS,
            scopeDownStatement: { orStatement: { statements: RATE_LIMITED_PATH_PREFIXES.map(pathStartsWith) } },
          },
        },
        visibilityConfig: visibility('mintdesk-reserves-rate-limit'),
      },
      {
        name: 'AWSManagedRulesCommonRuleSet',
        priority: 1,
        overrideAction: { none: {} },
        statement: {
          managedRuleGroupStatement: {
            vendorName: 'AWS',
            name: 'AWSManagedRulesCommonRuleSet',
            ruleActionOverrides: COMMON_RULES_COUNTED.map((name) => ({ name, actionToUse: { count: {} } })),
          },
        },
        visibilityConfig: visibility('mintdesk-aws-common-rules'),
      },
    ],
  })
  new wafv2.CfnWebACLAssociation(stack, 'WebAclAssociation', {
    resourceArn: p.loadBalancer.loadBalancerArn,
    webAclArn: acl.attrArn,
  })
  return acl
}
