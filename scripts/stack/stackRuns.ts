import path from 'node:path'
import type { ReleaseProcessSpec } from './prepareRelease'
import { releaseEnv } from './stackProcessHelpers'
import { type StandaloneWebReturnType, standaloneWeb } from './standaloneWeb'

/** How the local stack starts one of its processes: its folder, node's arguments, its own environment. */
export type StackRun = StandaloneWebReturnType & {
  /** what its command line holds, to know it again in a later run's leftovers (processes.ts) */
  cmd: string
}

export type StackRunParameters = {
  root: string
  /** the release's copy (the bench, decision 032), run instead of the sources */
  release?: ReleaseProcessSpec
  /** the environment the stack gives its children (the release's NODE_OPTIONS join theirs) */
  childEnv: NodeJS.ProcessEnv
}

/** The web, both ways as the image runs it: the release's `node server.js`, else .next's standalone server. */
export function webRun({ release, childEnv, root, port }: StackRunParameters & { port: number }): StackRun {
  if (!release) return { ...standaloneWeb({ root, port }), cmd: 'server.js' }
  return { cwd: release.cwd, args: release.args, env: releaseEnv(release.env, childEnv), cmd: 'server.js' }
}

/** A worker: the release's `node worker.mjs`, else the sources under tsx (the code being edited). */
export function workerRun({ release, childEnv, root }: StackRunParameters): StackRun {
  if (release)
    return { cwd: release.cwd, args: release.args, env: releaseEnv(release.env, childEnv), cmd: 'worker.mjs' }
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  return { cwd: root, args: [tsx, 'worker/runtime/main.ts'], env: {}, cmd: 'worker/runtime/main.ts' }
}
