import { Duration, type aws_ecs as ecs } from 'aws-cdk-lib'

/** the images' health checks (Dockerfile HEALTHCHECK), repeated for ECS, which ignores HEALTHCHECK */
export const CONTAINER_HEALTHCHECK_COMMAND = ['CMD', 'node', 'healthcheck.mjs']

/** The container health check of a web or worker task: the Dockerfile's, with the task's own start period. */
export function containerHealthCheck({ startPeriod }: { startPeriod: Duration }): ecs.HealthCheck {
  return {
    command: CONTAINER_HEALTHCHECK_COMMAND,
    interval: Duration.seconds(30),
    timeout: Duration.seconds(5),
    retries: 3,
    startPeriod,
  }
}
