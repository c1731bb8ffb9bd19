import {
  type aws_ec2 as ec2,
  aws_ecr as ecr,
  aws_ecs as ecs,
  aws_logs as logs,
  RemovalPolicy,
  type Stack,
} from 'aws-cdk-lib'
import { assertImageDigest, type ImageDigests } from './imageDigest'

export type AddClusterParameters = {
  vpc: ec2.IVpc
  /** the images to run, by digest (a tag is refused: assertImageDigest) */
  imageDigests: ImageDigests
  /** ECR repositories holding the `web` and `worker` targets of the Dockerfile */
  webRepositoryName?: string
  workerRepositoryName?: string
}

export type Cluster = {
  cluster: ecs.Cluster
  logs: { web: logs.LogGroup; worker: logs.LogGroup; migrate: logs.LogGroup }
  webImage: ecs.ContainerImage
  /** the worker image: the worker service and the migration task */
  workerImage: ecs.ContainerImage
}

/**
 * The ECS cluster, one CloudWatch log group per process (kept a year, retained), and
 * the two images: ECR repositories plus each image's digest (`repo@sha256:...`), so
 * synthesis needs no Docker and a re-pushed tag cannot change what runs.
 */
export function addCluster(stack: Stack, p: AddClusterParameters): Cluster {
  const webDigest = assertImageDigest('webImageDigest', p.imageDigests.web)
  const workerDigest = assertImageDigest('workerImageDigest', p.imageDigests.worker)
  const cluster = new ecs.Cluster(stack, 'Cluster', { vpc: p.vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED })
  const logGroup = (name: string) =>
    new logs.LogGroup(stack, `${name}Logs`, {
      retention: logs.RetentionDays.ONE_YEAR,
      removalPolicy: RemovalPolicy.RETAIN,
    })
  const web = logGroup('Web')
  const worker = logGroup('Worker')
  const migrate = logGroup('Migrate')
  return {
    cluster,
    logs: { web, worker, migrate },
    webImage: ecs.ContainerImage.fromEcrRepository(
      ecr.Repository.fromRepositoryName(stack, 'WebRepo', p.webRepositoryName ?? 'mintdesk-web'),
      webDigest,
    ),
    workerImage: ecs.ContainerImage.fromEcrRepository(
      ecr.Repository.fromRepositoryName(stack, 'WorkerRepo', p.workerRepositoryName ?? 'mintdesk-worker'),
      workerDigest,
    ),
  }
}
