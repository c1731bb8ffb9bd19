import { defineConfig } from 'drizzle-kit'

// Migrations are generated from db/schema and committed under db/migrations.
// They are applied by lib code at start (scripts/ and the deploy's one-off task),
// never by drizzle-kit push.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/mintdesk' },
})
