import { randomBytes } from 'node:crypto'
import { normalizePassword, SCRYPT_KEY_BYTES, SCRYPT_PARAMS, SCRYPT_SALT_BYTES, scrypt } from './scrypt'

export type HashPasswordParameters = { password: string }
/** `scrypt$N$r$p$<salt base64>$<hash base64>` */
export type HashPasswordReturnType = string

/**
 * Hashes a password with scrypt (N=2^15, r=8, p=1, a random 16-byte salt) into the
 * self-describing string stored in `users.password_hash`.
 */
export async function hashPassword({ password }: HashPasswordParameters): Promise<HashPasswordReturnType> {
  if (typeof password !== 'string' || password.length === 0) throw new TypeError('password must be a non-empty string')
  const salt = randomBytes(SCRYPT_SALT_BYTES)
  const { N, r, p } = SCRYPT_PARAMS
  const key = await scrypt(normalizePassword(password), salt, SCRYPT_KEY_BYTES, { N, r, p })
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')
}
