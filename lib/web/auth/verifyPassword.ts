import { timingSafeEqual } from 'node:crypto'
import { normalizePassword, scrypt } from '@/lib/auth/scrypt'

export type VerifyPasswordParameters = { password: string; hash: string }

/**
 * True when `password` matches a hash made by `hashPassword`, compared in constant time.
 * The cost parameters are read from the hash, so old hashes keep working when the
 * defaults change. A malformed hash, or one with absurd parameters (a tampered row
 * asking for gigabytes), never matches.
 */
export async function verifyPassword({ password, hash }: VerifyPasswordParameters): Promise<boolean> {
  if (typeof password !== 'string' || typeof hash !== 'string') return false
  const parsed = parseHash(hash)
  if (!parsed) return false
  const { N, r, p, salt, key } = parsed
  const candidate = await scrypt(normalizePassword(password), salt, key.length, { N, r, p })
  return candidate.length === key.length && timingSafeEqual(candidate, key)
}

type ParsedHash = { N: number; r: number; p: number; salt: Buffer; key: Buffer }

const base64 = /^[A-Za-z0-9+/]+={0,2}$/

function parseHash(hash: string): ParsedHash | null {
  const parts = hash.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null
  const [, nText, rText, pText, saltText, keyText] = parts
  const N = strictInt(nText)
  const r = strictInt(rText)
  const p = strictInt(pText)
  if (N === null || r === null || p === null) return null
  // N a power of two from 2^10 to 2^20; memory 128*N*r bounded to 256 MiB
  if (N < 2 ** 10 || N > 2 ** 20 || (N & (N - 1)) !== 0) return null
  if (r < 1 || r > 32 || p < 1 || p > 16 || 128 * N * r > 256 * 1024 * 1024) return null
  if (!base64.test(saltText) || !base64.test(keyText)) return null
  const salt = Buffer.from(saltText, 'base64')
  const key = Buffer.from(keyText, 'base64')
  if (salt.length < 8 || key.length < 16 || key.length > 128) return null
  return { N, r, p, salt, key }
}

function strictInt(text: string): number | null {
  return /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : null
}
