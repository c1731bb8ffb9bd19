import { sleep } from '@/lib/time/sleep'
import type { ManagedChild } from './processes'

/**
 * The image's variables over the stack's, NODE_OPTIONS joined (the
 * image's flags, then the caller's, e.g. the bench's preload).
 */
export function releaseEnv(image: Record<string, string>, childEnv: NodeJS.ProcessEnv): Record<string, string> {
  const nodeOptions = [image.NODE_OPTIONS, childEnv.NODE_OPTIONS].filter(Boolean).join(' ')
  return { ...image, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) }
}

export function portOf(url: string): string {
  return new URL(url).port
}

export async function waitForHttp(url: string, timeoutMs: number, child: ManagedChild): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.child.exitCode !== null) throw new Error(`${child.name} exited with code ${child.child.exitCode}`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {}
    await sleep({ ms: 250 })
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
}
