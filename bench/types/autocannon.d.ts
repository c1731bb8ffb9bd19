// The part of autocannon 9's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export type AutocannonRequest = {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
    /** called before every request is sent; returns the request to send */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | null
  }

  export type AutocannonOptions = {
    url: string
    connections?: number
    /** seconds */
    duration?: number
    amount?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: AutocannonRequest[]
    /** seconds */
    timeout?: number
    pipelining?: number
  }

  export type AutocannonResult = {
    /** seconds */
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
    requests: { total: number; sent: number; average: number }
    latency: { p50: number; p99: number; average: number }
  }

  export type AutocannonInstance = EventEmitter & PromiseLike<AutocannonResult> & { stop: () => void }

  function autocannon(options: AutocannonOptions): AutocannonInstance
  export default autocannon
}
