import { sql } from 'drizzle-orm'
import {
  bigserial,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

/** staff request mints; approvers approve others' requests; admins do both and operate the desk. */
export const userRole = pgEnum('user_role', ['staff', 'admin', 'approver', 'auditor'])
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

/**
 * Sessions ended on the server (sign-out): a session cookie carries its own id (`sid`,
 * lib/web/auth/sessionClaimsFrom.ts), and one whose id is here is refused on every request,
 * like a session of another `session_version`, but for that one session only. A row is
 * kept until `expires_at`, the latest moment the session could still stand (its sign-in
 * time plus the longest SESSION_MAX_AGE_HOURS the config allows), then pruned by the next
 * sign-out (lib/web/auth/revokeSession.ts).
 */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    sessionId: uuid('session_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_sessions_expires_idx').on(t.expiresAt)],
)

/**
 * Failed sign-ins (and those under way), one row each, for the login throttle
 * (lib/web/auth/beginLoginAttempt.ts): counted per account and source, and per source,
 * within a sliding window, by every web process alike. The account is kept as a hash of
 * the normalised email (a typed-in email may be anything, a password included), the
 * source as the client's address (an IPv6 client by its /64). Rows older than the window
 * are pruned by the next attempt.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    /** sha256 of the normalised email, hex */
    accountKey: text('account_key').notNull(),
    /** the client's address, an IPv6 one as its /64 prefix, or 'unknown' */
    source: text('source').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('login_failures_account_source_idx').on(t.accountKey, t.source, t.failedAt),
    index('login_failures_source_idx').on(t.source, t.failedAt),
    index('login_failures_failed_at_idx').on(t.failedAt),
  ],
)
