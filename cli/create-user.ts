// Creates a mintdesk user: `node create-user.mjs` in the worker image (bundled by
// scripts/build-release.ts), `tsx cli/create-user.ts` from a checkout. Production
// has no seeded users: the first admin is created with this, as a one-off ECS task
// (docs/deploy.md), and signs in through OIDC (matched by email, no password).
//
//   node create-user.mjs --email ada@example.com --name "Ada Lovelace" --role admin
//   printf '%s' "$PASSWORD" | node create-user.mjs --email ... --role staff --password-stdin
//
// --password-stdin is for deployments without OIDC (password sign-in is on in
// production only then): the password never appears in arguments or task history.
// Needs DATABASE_URL (the password may come from PGPASSWORD). Exit 0 created, 2 usage,
// 3 the email exists already, 1 anything else. JSON log lines.
import { parseArgs } from 'node:util'
import { createDb } from '@/db/client'
import { type UserRole, userRole, users } from '@/db/schema/users'
import { hashPassword } from '@/lib/auth/hashPassword'
import { readUserByEmail } from '@/lib/auth/readUserByEmail'
import { loadConfig } from '@/lib/config/loadConfig'
import { createCliLog, runCli } from './cli'

const log = createCliLog('mintdesk-create-user')

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}

async function main(): Promise<number> {
  let values: { email?: string; name?: string; role?: string; 'password-stdin'?: boolean }
  try {
    ;({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        'password-stdin': { type: 'boolean', default: false },
      },
      strict: true,
    }))
  } catch (err) {
    log('error', `usage: ${err instanceof Error ? err.message : String(err)}`)
    return 2
  }
  const email = values.email?.trim().toLowerCase() ?? ''
  const role = values.role as UserRole | undefined
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || !role || !userRole.enumValues.includes(role)) {
    log('error', 'usage: create-user --email EMAIL --role staff|approver|admin [--name NAME] [--password-stdin]')
    return 2
  }
  const password = values['password-stdin'] ? await readStdin() : undefined
  if (password !== undefined && password.length < 12) {
    log('error', 'the password must have at least 12 characters')
    return 2
  }

  const config = loadConfig({ role: 'tool' })
  const { db, close } = createDb({ url: config.databaseUrl, max: 1, name: 'mintdesk-create-user' })
  try {
    if (await readUserByEmail(db, { email })) {
      log('error', 'a user with this email exists already', { email })
      return 3
    }
    const passwordHash = password === undefined ? null : await hashPassword({ password })
    const [row] = await db
      .insert(users)
      .values({ email, name: values.name?.trim() || email, role, passwordHash })
      .returning({ id: users.id })
    log('info', 'user created', { id: row?.id, email, role, signIn: passwordHash ? 'password or OIDC' : 'OIDC only' })
    return 0
  } finally {
    await close()
  }
}

await runCli({ name: 'create-user', log, main })
