import { Template } from 'aws-cdk-lib/assertions'
import { describe, expect, it } from 'vitest'
import { isBaseError } from '@/lib/errors/BaseError'
import { TEST_CERTIFICATE_ARN, TEST_ENV, TEST_IMAGE_DIGESTS } from '../lib/testStackProps'
import { createApp } from './createApp'

// The deploy app as `cdk synth` builds it (deploy/bin/mintdesk.ts calls createApp), with
// its props from the context: the queue transport, the images by digest, the rest.

type Resource = { Type: string; Properties?: Record<string, unknown> }

const required = {
  certificateArn: TEST_CERTIFICATE_ARN,
  webImageDigest: TEST_IMAGE_DIGESTS.web,
  workerImageDigest: TEST_IMAGE_DIGESTS.worker,
  maxFeePerGasWei: '200000000000',
}

function synth(context: Record<string, unknown>): Record<string, Resource> {
  const { stack } = createApp({ context: { ...required, ...context }, env: TEST_ENV })
  return Template.fromStack(stack).toJSON().Resources as Record<string, Resource>
}

const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type)

function containerEnv(resources: Record<string, Resource>, name: string): Record<string, unknown> {
  const c = ofType(resources, 'AWS::ECS::TaskDefinition')
    .flatMap(([, r]) => (r.Properties?.ContainerDefinitions ?? []) as { Name: string; Environment?: unknown[] }[])
    .find((d) => d.Name === name)
  if (!c) throw new Error(`no container ${name}`)
  return Object.fromEntries(
    ((c.Environment ?? []) as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value] as const),
  )
}

/** the message of what createApp throws for this context, and the context keys it names */
function refusal(context: Record<string, unknown>): { message: string; variables: string[] } {
  try {
    createApp({ context, env: TEST_ENV })
  } catch (error) {
    if (!isBaseError(error)) throw error
    // a ConfigError
    return { message: error.message, variables: (error as unknown as { variables: string[] }).variables }
  }
  throw new Error(`createApp accepted ${JSON.stringify(context)}`)
}

describe('createApp: -c queueTransport', () => {
  it('sqs: the mint_send queue and its dead-letter queue, and QUEUE_TRANSPORT=sqs in both processes', () => {
    const resources = synth({ queueTransport: 'sqs' })
    const queues = ofType(resources, 'AWS::SQS::Queue')
    expect(queues).toHaveLength(2)
    const [[, main] = ['', { Type: '' }]] = queues.filter(([, q]) => q.Properties?.RedrivePolicy)
    const [[dlqId] = ['']] = queues.filter(([, q]) => !q.Properties?.RedrivePolicy)
    expect(JSON.stringify(main.Properties?.RedrivePolicy)).toContain(dlqId)
    expect(containerEnv(resources, 'worker')).toMatchObject({ QUEUE_TRANSPORT: 'sqs' })
    expect(containerEnv(resources, 'worker').SQS_DLQ_URL).toBeDefined()
    expect(containerEnv(resources, 'web')).toMatchObject({ QUEUE_TRANSPORT: 'sqs' })
  })

  it('postgres (or unset): no queue at all, graphile-worker in RDS', () => {
    for (const context of [{ queueTransport: 'postgres' }, {}]) {
      const resources = synth(context)
      expect(ofType(resources, 'AWS::SQS::Queue'), JSON.stringify(context)).toHaveLength(0)
      expect(containerEnv(resources, 'worker').QUEUE_TRANSPORT).toBeUndefined()
    }
  })

  it('refuses another transport, naming the key', () => {
    expect(refusal({ ...required, queueTransport: 'kafka' }).variables).toEqual(['queueTransport'])
  })
})

describe('createApp: the images by digest', () => {
  it('runs repo@sha256:... from -c webImageDigest / workerImageDigest in every task definition', () => {
    const images = ofType(synth({}), 'AWS::ECS::TaskDefinition')
      .flatMap(([, r]) => (r.Properties?.ContainerDefinitions ?? []) as { Name: string; Image: unknown }[])
      .map((c) => [c.Name, JSON.stringify(c.Image)] as const)
    expect(images.map(([name]) => name).sort()).toEqual(['migrate', 'web', 'worker'])
    for (const [name, image] of images) {
      const [repo, digest] = name === 'web' ? ['web', TEST_IMAGE_DIGESTS.web] : ['worker', TEST_IMAGE_DIGESTS.worker]
      // the image URI ends with repo@digest: no tag anywhere
      expect(image, name).toMatch(new RegExp(`/mintdesk-${repo}@${digest}"\\]\\]\\}$`))
    }
  })

  it('refuses a mutable tag, a malformed digest or none, naming the key', () => {
    for (const bad of [
      'latest',
      'v1.4.2',
      '4f1c2a9e0b7d',
      'sha256:abc',
      `sha256:${'A'.repeat(64)}`,
      `x@sha256:${'a'.repeat(64)}`,
    ]) {
      const r = refusal({ ...required, workerImageDigest: bad })
      expect(r.variables, bad).toEqual(['workerImageDigest'])
      expect(r.message).toMatch(/digest/)
    }
    const { webImageDigest: _, ...noWeb } = required
    expect(refusal(noWeb).variables).toEqual(['webImageDigest'])
  })
})

describe('createApp: the other context values', () => {
  it('requires certificateArn', () => {
    const { certificateArn: _, ...rest } = required
    expect(refusal(rest).variables).toEqual(['certificateArn'])
  })

  it('requires the fee ceiling maxFeePerGasWei (a production worker refuses to start without it)', () => {
    const { maxFeePerGasWei: _, ...rest } = required
    expect(refusal(rest).variables).toEqual(['maxFeePerGasWei'])
  })

  it('requires a region (the CLI sets CDK_DEFAULT_REGION): the ALB access logs depend on it', () => {
    const saved = process.env.CDK_DEFAULT_REGION
    delete process.env.CDK_DEFAULT_REGION
    try {
      expect(() => createApp({ context: required })).toThrow(/CDK_DEFAULT_REGION/)
    } finally {
      if (saved !== undefined) process.env.CDK_DEFAULT_REGION = saved
    }
  })

  it('passes the rest to the stack, and refuses a value of the wrong shape by name', () => {
    const resources = synth({
      natGateways: '1',
      signerKeys: 'signer-1, signer-2',
      maxFeePerGasWei: '200000000000',
      workerConcurrency: 4,
      dbMultiAz: 'false',
    })
    expect(ofType(resources, 'AWS::EC2::NatGateway')).toHaveLength(1)
    expect(ofType(resources, 'AWS::KMS::Key')).toHaveLength(2)
    expect(containerEnv(resources, 'worker')).toMatchObject({
      MAX_FEE_PER_GAS: '200000000000',
      WORKER_CONCURRENCY: '4',
    })
    expect(ofType(resources, 'AWS::RDS::DBInstance')[0]?.[1].Properties?.MultiAZ).toBe(false)
    for (const [key, value] of [
      ['natGateways', 'two'],
      ['natGateways', '0'],
      ['workerConcurrency', '1.5'],
      ['dbMultiAz', 'yes'],
      ['maxFeePerGasWei', '2e11'],
    ] as const) {
      expect(refusal({ ...required, [key]: value }).variables, `${key}=${value}`).toEqual([key])
    }
  })
})
