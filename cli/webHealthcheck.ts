// The web image's health check (HEALTHCHECK in the Dockerfile, healthCheck of the ECS
// container): `node healthcheck.mjs` exits 0 when GET /api/health answers 200 on this
// container's PORT, 1 otherwise. Liveness only; the load balancer asks /api/ready.
import { createApiClient } from './apiClient/createApiClient'

const port = process.env.PORT ?? '3000'
try {
  const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}` })
  const { response } = await api.GET('/api/health', { signal: AbortSignal.timeout(4_000) })
  process.exitCode = response.ok ? 0 : 1
} catch {
  process.exitCode = 1
}
