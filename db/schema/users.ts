import { sql } from 'drizzle-orm'
import { boolean, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

/** staff request mints; approvers approve others' requests; admins do both and operate the desk. */
export const userRole = pgEnum('user_role', ['staff', 'admin', 'approver'])
export type UserRole = (typeof userRole.enumValues)[number]

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    role: userRole('role').notNull(),
    /** scrypt hash (lib/auth/hashPassword.ts); null for users who only sign in through OIDC. */
    passwordHash: text('password_hash'),
    /** a disabled user is refused on their next request, whatever their session says */
    disabled: boolean('disabled').notNull().default(false),
    /**
     * Bumped on every role change or disable: a session carries the version it was issued
     * with, and one with another version is refused (revocation without a
     * session store).
     */
    sessionVersion: integer('session_version').notNull().default(0),
    /** the OIDC issuer and subject this user is bound to at first OIDC sign-in */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_oidc_identity_key').on(t.oidcIssuer, t.oidcSubject).where(sql`${t.oidcIssuer} is not null`),
  ],
)
