/**
 * What the local stack sets in every process it starts (and npm start in its own): the AWS SDK for JavaScript
 * warns on each process's first client below Node 22 that its releases after January 2027 need Node 22. Said
 * once by nodeVersionNotice instead, beside which Node runs what.
 */
export const QUIET_NODE_VERSION_ENV: Readonly<Record<string, string>> = {
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
}

/** the Node major the images run and the AWS SDK asks for from January 2027 */
const IMAGE_NODE_MAJOR = 22

export type NodeVersionNoticeParameters = {
  /** process.version: the Node running npm start, and with it every process of the local stack */
  nodeVersion: string
  /** the Dockerfile's text: its `ARG NODE_IMAGE=` names the images' Node */
  dockerfile: string
}

/**
 * npm start's one line on Node: which Node runs the local stack (the stack itself, the web's standalone
 * server, the worker, all started with the same binary) and which the images run; below Node 22, what to do
 * about it, since the AWS SDK's own warning is left out (QUIET_NODE_VERSION_ENV).
 *
 * @example
 * nodeVersionNotice({ nodeVersion: 'v20.20.2', dockerfile })
 * // 'Node v20.20.2 runs this stack (the web's standalone server, the worker, the tools); the images run
 * //  node:22-bookworm-slim. The AWS SDK needs Node 22 from its releases after January 2027: install Node 22 ...'
 */
export function nodeVersionNotice({ nodeVersion, dockerfile }: NodeVersionNoticeParameters): string {
  const image = /^ARG NODE_IMAGE=([^@\s]+)/m.exec(dockerfile)?.[1] ?? `node:${IMAGE_NODE_MAJOR}`
  const major = Number(/^v?(\d+)/.exec(nodeVersion)?.[1] ?? '0')
  const runs = `Node ${nodeVersion} runs this stack (the web's standalone server, the worker, the tools); the images run ${image}.`
  return major >= IMAGE_NODE_MAJOR
    ? runs
    : `${runs} The AWS SDK needs Node ${IMAGE_NODE_MAJOR} from its releases after January 2027: install Node ${IMAGE_NODE_MAJOR} to run what the images run (this one works until then).`
}
