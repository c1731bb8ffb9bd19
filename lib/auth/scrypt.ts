import { type ScryptOptions, scrypt as scryptCallback } from 'node:crypto'

/** Node's callback `crypto.scrypt` as a promise, with `maxmem` sized for the cost asked. */
export function scrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  { N, r, p }: { N: number; r: number; p: number },
): Promise<Buffer> {
  // scrypt needs about 128 * N * r bytes; node refuses above maxmem (32 MiB by default,
  // exactly what N=2^15, r=8 needs), so give it twice that.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r }
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

/** The cost parameters new hashes use. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const
export const SCRYPT_SALT_BYTES = 16
export const SCRYPT_KEY_BYTES = 32

/** Passwords are compared in one Unicode form, so the same password typed on two keyboards matches. */
export function normalizePassword(password: string): string {
  return password.normalize('NFC')
}
