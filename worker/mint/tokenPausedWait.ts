import type { SendOutcome } from './sendOutcome'

/** how soon an operation held back by the token's pause looks again (it waits: no attempt is spent) */
export const TOKEN_PAUSED_RETRY_MS = 3_000

/** GoldMinter's revert that says the token is paused: a mint or a burn waits for the unpause */
export const TOKEN_PAUSED_ERROR = 'TokenPaused'

/**
 * The outcome of an operation whose simulation reverted TokenPaused (a mint or a burn while a compliance pause
 * holds, docs/decisions/056-compliance-operations.md): it waits, nothing signed, no nonce taken, no attempt spent,
 * and goes on once the token is unpaused.
 */
export function tokenPausedWait(): SendOutcome {
  return { kind: 'wait', reason: 'token_paused: the token is paused', retryInMs: TOKEN_PAUSED_RETRY_MS }
}
