import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'

const ITERATIONS = 4096

/**
 * The SCRAM-SHA-256 verifier Postgres stores for a password (RFC 5802/7677, what psql's
 * \password sends): `ALTER ROLE ... PASSWORD '<verifier>'` sets the password without the
 * clear text ever reaching the server, its statement log or pg_stat_statements. The
 * password must be printable ASCII (SASLprep leaves it unchanged; applyDatabaseRoles checks).
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16)): string {
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, ITERATIONS, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}
