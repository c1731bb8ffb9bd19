import type { PreparedRelease } from '../../scripts/stack/prepareRelease'
import type { ReleaseInfo } from '../BenchResult'

/** What the stack ran: the release's source hash, and each image's runtime variables as `K=V` words. */
export function releaseInfo(release: PreparedRelease): ReleaseInfo {
  return {
    sourceHash: release.sourceHash,
    built: release.built,
    workerEnv: imageEnvWords(release.worker.env),
    webEnv: imageEnvWords(release.web.env),
  }
}

/** The image's variables as `K=V` words (the local stack's own HOSTNAME left out). */
function imageEnvWords(env: Record<string, string>): string {
  return Object.entries(env)
    .filter(([k]) => k !== 'HOSTNAME')
    .map(([k, v]) => `${k}=${v.includes(' ') ? `"${v}"` : v}`)
    .join(' ')
}
