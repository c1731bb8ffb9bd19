// The web image's health check (HEALTHCHECK in the Dockerfile, healthCheck of the ECS
// container): `node healthcheck.mjs` exits 0 when GET /api/health answers 200 on this
// container's PORT, 1 otherwise. Liveness only; the load balancer asks /api/ready.
export {}

const port = process.env.PORT ?? '3000'
try {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4_000) })
  process.exitCode = res.ok ? 0 : 1
} catch {
  process.exitCode = 1
}
