import type { JWT } from 'next-auth/jwt'

/** Entries kept at most: a few hundred bytes of cookie each, so well under a megabyte per thousand sessions. */
export const SESSION_TOKEN_CACHE_SIZE = 2_000

export type SessionTokenCache = {
  /** the token this exact cookie value decrypted to, while it has not expired; else undefined */
  get: (key: string, nowSeconds: number) => JWT | undefined
  set: (key: string, token: JWT) => void
}

type Store = Map<string, JWT>

/**
 * What session cookies decrypted to, by their exact value, for this process: a JWE is
 * decrypted (HKDF key derivation + AES-CBC-HMAC, ~0.8 ms of CPU) once per cookie, not once
 * per request. Safe to reuse: a cookie's value is its ciphertext, so the same value can
 * only decrypt to the same token, and nothing can be added here but what a decryption
 * with the secret gave (the key includes the cookie's name and secret). Expiry (`exp`)
 * is checked on every hit. Whether the session still stands is NOT cached: the user's
 * row is read on every request (lib/web/auth/verifySession.ts), so revocation stays
 * immediate. Bounded: the oldest entry goes when it is full (a hit moves an entry to
 * the end). Kept on globalThis: the proxy and the route handlers are bundled apart but
 * run in one process, and a dev hot reload keeps it.
 */
export function getSessionTokenCache(): SessionTokenCache {
  const holder = globalThis as unknown as { mintdeskSessionTokens?: Store }
  holder.mintdeskSessionTokens ??= new Map()
  const store: Store = holder.mintdeskSessionTokens
  return {
    get(key, nowSeconds) {
      const token = store.get(key)
      if (!token) return undefined
      store.delete(key)
      if (typeof token.exp !== 'number' || token.exp <= nowSeconds) return undefined
      store.set(key, token)
      return token
    },
    set(key, token) {
      if (typeof token.exp !== 'number') return
      store.delete(key)
      store.set(key, token)
      while (store.size > SESSION_TOKEN_CACHE_SIZE) {
        const oldest = store.keys().next()
        if (oldest.done) break
        store.delete(oldest.value)
      }
    },
  }
}
