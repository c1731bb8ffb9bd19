import path from 'node:path'

/** The local web listens on loopback only: the dev logins and dev secrets must not reach the network. */
export const LOCAL_WEB_HOST = '127.0.0.1'

export type NextStartArgsParameters = {
  root: string
  port: number
}

/**
 * The arguments of `node <next> start` for the local stack: bound to 127.0.0.1 (`-H`),
 * not Next's default of every interface, since the stack runs in dev mode with seeded
 * passwords. The images bind 0.0.0.0 on purpose (HOSTNAME in the Dockerfile):
 * there the load balancer is the only way in.
 */
export function nextStartArgs({ root, port }: NextStartArgsParameters): string[] {
  return [
    path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'),
    'start',
    '-H',
    LOCAL_WEB_HOST,
    '-p',
    String(port),
  ]
}
