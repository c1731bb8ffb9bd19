import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DB_ENGINE_VERSION } from './addDatabase'
import { MintdeskStack } from './MintdeskStack'
import { TEST_IMAGE_DIGESTS } from './testStackProps'

// The stack's template, synthesized offline, linted with cfn-lint (AWS's
// CloudFormation linter, a Python tool: on this project's machines it comes with the
// image, `cfn-lint --version`; elsewhere `pip install cfn-lint`). Clean of errors and of
// every warning that is ours; the only warnings let through are the CDK's own redundant
// DependsOn (W3005) next to a Lambda's or state machine's own role, and ecs_patterns'
// service-after-listener. The RDS engine version is pinned to a full minor version.

/** the pinned engine version (deploy/lib/addDatabase.ts DB_ENGINE_VERSION; docs/deploy.md says how to move it) */
const PINNED_ENGINE_VERSION = '17.9'
const CERT = 'arn:aws:acm:eu-west-1:111111111111:certificate/00000000-0000-0000-0000-000000000000'

type Finding = { Level: string; Message: string; Rule: { Id: string }; Location: { Path: (string | number)[] } }

/** W3005 "dependency already enforced" that the CDK writes itself, not our code */
function isCdksOwnDependency(f: Finding): boolean {
  return (
    f.Rule.Id === 'W3005' &&
    /at 'Resources\/[^/]+\/Properties\/(Role|RoleArn|LoadBalancers\/\d+\/TargetGroupArn)'/.test(f.Message)
  )
}

describe('the deploy template (cfn-lint)', () => {
  let dir: string
  let file: string
  let template: Record<string, unknown>
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mintdesk-cfn-'))
    const app = new App({ outdir: path.join(dir, 'cdk.out') })
    // a region, as a deploy has: cfn-lint then checks the region's resource specifications
    const stack = new MintdeskStack(app, 'Mintdesk', {
      certificateArn: CERT,
      imageDigests: TEST_IMAGE_DIGESTS,
      env: { region: 'eu-west-1' },
      signerKeyNames: ['signer-1', 'signer-2'],
    })
    template = Template.fromStack(stack).toJSON()
    file = path.join(dir, 'template.json')
    writeFileSync(file, JSON.stringify(template, null, 1))
  }, 60_000)
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('pins the RDS engine to a full version RDS offers (17.x), not the bare major', () => {
    expect(DB_ENGINE_VERSION.postgresFullVersion).toBe(PINNED_ENGINE_VERSION)
    const resources = Object.values(
      (template.Resources ?? {}) as Record<string, { Type: string; Properties?: Record<string, unknown> }>,
    )
    const db = resources.filter((r) => r.Type === 'AWS::RDS::DBInstance')
    expect(db.map((r) => [r.Properties?.Engine, r.Properties?.EngineVersion])).toEqual([
      ['postgres', PINNED_ENGINE_VERSION],
    ])
  })

  it('has no cfn-lint error and no warning of ours', () => {
    const version = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' })
    if (version.error || version.status !== 0) {
      throw new Error(
        'cfn-lint is not installed on this machine: the template cannot be linted. It is a Python tool (not on npm, not in Debian 12): `pip install cfn-lint` (any 1.x; the project image ships 1.51.0), then run this test again.',
      )
    }
    const run = spawnSync('cfn-lint', ['--format', 'json', '--', file], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    })
    // exit codes are a bit mask: 2 errors, 4 warnings, 8 informational; 1 means cfn-lint itself failed
    expect(run.status === null || (run.status & 1) === 1, `cfn-lint failed: ${run.stderr}`).toBe(false)
    const findings = JSON.parse(run.stdout || '[]') as Finding[]
    const ours = findings.filter((f) => f.Level !== 'Informational' && !isCdksOwnDependency(f))
    expect(ours.map((f) => `${f.Rule.Id} ${f.Location.Path.join('/')}: ${f.Message}`)).toEqual([])
    // the exemption stays narrow: only the CDK's own DependsOn
    expect(findings.filter(isCdksOwnDependency).every((f) => f.Level === 'Warning')).toBe(true)
  }, 120_000)
})
