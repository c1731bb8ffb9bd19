import type { BenchStack } from './startBenchStack'

/** One of the stack's live settings (DATABASE_ADMIN_URL, RPC_URL, ...); throws when the stack has none. */
export function stackEnv(stack: Pick<BenchStack, 'env'>, key: string): string {
  const value = stack.env[key]
  if (!value) throw new Error(`the stack has no ${key}`)
  return value
}
