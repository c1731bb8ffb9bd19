import { existsSync } from 'node:fs'
import path from 'node:path'
import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { COMMON_RULES_COUNTED, RATE_LIMITED_PATH_PREFIXES, RESERVES_RATE_LIMIT } from './addWebAcl'
import { MintdeskStack } from './MintdeskStack'
import { TEST_STACK_PROPS } from './testStackProps'

// WAF on the load balancer: the public reserves endpoints (each request reads the chain)
// are rate-limited per source IP; AWS's common rules in front of everything.

type Json = Record<string, unknown>
type Resource = { Type: string; Properties: Json }
type ByteMatch = {
  FieldToMatch: Json
  PositionalConstraint: string
  SearchString: string
  TextTransformations: { Priority: number; Type: string }[]
}

const root = path.resolve(import.meta.dirname, '..', '..')
let stack: MintdeskStack
let resources: Record<string, Resource>
let acl: Resource

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type)
const rule = (name: string) => (acl.Properties.Rules as Json[]).find((r) => r.Name === name) as Json

/** WAF's text transformations, as its documentation describes them, for the ones the rule uses */
function transform(value: string, type: string): string {
  if (type === 'URL_DECODE') return decodeURIComponent(value)
  if (type === 'LOWERCASE') return value.toLowerCase()
  if (type === 'NORMALIZE_PATH') {
    const out: string[] = []
    for (const segment of value.replace(/\/{2,}/g, '/').split('/')) {
      if (segment === '..') out.pop()
      else if (segment !== '.') out.push(segment)
    }
    return out.join('/')
  }
  throw new Error(`transformation ${type} not modelled`)
}

/** whether the rate rule's scope-down statement covers a request path */
function scoped(uriPath: string): boolean {
  const statement = (rule('ReservesRateLimitPerIp').Statement as Json).RateBasedStatement as Json
  const matches = ((statement.ScopeDownStatement as Json).OrStatement as { Statements: Json[] }).Statements.map(
    (s) => s.ByteMatchStatement as ByteMatch,
  )
  return matches.some((m) => {
    const value = [...m.TextTransformations]
      .sort((a, b) => a.Priority - b.Priority)
      .reduce((v, t) => transform(v, t.Type), uriPath)
    return m.PositionalConstraint === 'STARTS_WITH' && value.startsWith(m.SearchString)
  })
}

beforeAll(() => {
  stack = new MintdeskStack(new App(), 'MintdeskWafTest', TEST_STACK_PROPS)
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>
  const acls = ofType('AWS::WAFv2::WebACL')
  expect(acls).toHaveLength(1)
  acl = acls[0]?.[1] as Resource
})

describe('the web ACL on the load balancer', () => {
  it('is regional, allows by default, and is associated with the ALB', () => {
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } })
    const associations = ofType('AWS::WAFv2::WebACLAssociation')
    expect(associations).toHaveLength(1)
    const [lbId] = ofType('AWS::ElasticLoadBalancingV2::LoadBalancer')[0] ?? ['']
    expect(associations[0]?.[1].Properties).toEqual({
      ResourceArn: { Ref: lbId },
      WebACLArn: { 'Fn::GetAtt': [stack.getLogicalId(stack.webAcl), 'Arn'] },
    })
  })

  it('rate-limits per source IP on the public reserves paths first, answering 429', () => {
    const r = rule('ReservesRateLimitPerIp')
    expect(r.Priority).toBe(0)
    expect(r.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } })
    const statement = (r.Statement as Json).RateBasedStatement as Json
    expect(statement).toMatchObject({ AggregateKeyType: 'IP', Limit: RESERVES_RATE_LIMIT, EvaluationWindowSec: 300 })
    const searched = (
      (statement.ScopeDownStatement as Json).OrStatement as { Statements: { ByteMatchStatement: ByteMatch }[] }
    ).Statements.map((s) => [s.ByteMatchStatement.SearchString, s.ByteMatchStatement.FieldToMatch])
    expect(searched).toEqual([
      ['/api/reserves', { UriPath: {} }],
      ['/reserves', { UriPath: {} }],
    ])
    expect(RATE_LIMITED_PATH_PREFIXES).toEqual(['/api/reserves', '/reserves'])
    // the paths are the app's public reserves routes
    for (const file of [
      'app/api/reserves/route.ts',
      'app/api/reserves/lookup/route.ts',
      'app/(public)/reserves/page.tsx',
    ])
      expect(existsSync(path.join(root, file)), file).toBe(true)
  })

  it('covers the reserves paths however they are spelled, and nothing else', () => {
    for (const p of [
      '/api/reserves',
      '/api/reserves/lookup',
      '/reserves',
      '/API/Reserves',
      '/%72eserves',
      '//api//reserves',
      '/x/../reserves',
    ])
      expect(scoped(p), p).toBe(true)
    for (const p of [
      '/',
      '/login',
      '/api/gold/mint',
      '/api/health',
      '/api/metrics',
      '/admin/reserves',
      '/_next/static/x.js',
    ])
      expect(scoped(p), p).toBe(false)
  })

  it("runs AWS's common rule set after it, counting only the body size rule (the app bounds bodies itself)", () => {
    const r = rule('AWSManagedRulesCommonRuleSet')
    expect(r.Priority).toBe(1)
    expect(r.OverrideAction).toEqual({ None: {} })
    expect((r.Statement as Json).ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
      RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
    })
    expect(COMMON_RULES_COUNTED).toEqual(['SizeRestrictions_BODY'])
    expect((acl.Properties.Rules as Json[]).map((x) => x.Name)).toEqual([
      'ReservesRateLimitPerIp',
      'AWSManagedRulesCommonRuleSet',
    ])
  })
})
