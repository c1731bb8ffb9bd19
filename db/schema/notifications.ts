import { sql } from 'drizzle-orm'
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { complianceOperations } from './compliance'
import { mintOrders } from './mint'
import { redemptions } from './redemptions'
import { users } from './users'

/** what a subscriber can listen to (docs/api.md "Webhooks and email") */
export const NOTIFICATION_EVENT_TYPES = [
  'mint.awaiting_approval',
  'mint.confirmed',
  'mint.failed',
  'mint.dead_letter',
  /** its transaction broadcast the first time (txHash) */
  'mint.submitted',
  /** a fee bump replaced its transaction (txHash the new one, replaced the old) */
  'mint.replaced',
  /** its mined transaction was reorged away: submitted again until it is mined again */
  'mint.reorged',
  /** a transfer to the redemption address has its confirmations (txHash, logIndex, from, amountWei) */
  'redemption.deposit_received',
  'redemption.awaiting_approval',
  /** its burn has its confirmations: the supply fell by amountWei, its bars are redeemed */
  'redemption.burned',
  'redemption.failed',
  'compliance.awaiting_approval',
  /** a freeze, unfreeze, pause or unpause has its confirmations */
  'compliance.applied',
  'compliance.failed',
] as const
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number]

const eventTypeList = NOTIFICATION_EVENT_TYPES.map((t) => `'${t}'`).join(', ')

/**
 * The outbox of order events: a row is written in the transaction that changes
 * the order (public.record_mint_event, db/functions/record_mint_event.sql), so an event exists iff its change
 * committed. Its id is the event id receivers dedupe on (`evt_<id>`). Only dispatched_at is
 * ever updated (by the dispatch).
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    /** the event's subject: a mint order, a redemption or a compliance operation (at most one; a deposit: none) */
    orderId: uuid('order_id').references(() => mintOrders.id),
    redemptionId: uuid('redemption_id').references(() => redemptions.id),
    complianceOperationId: uuid('compliance_operation_id').references(() => complianceOperations.id),
    /**
     * the delivered `data` (orderId, status, to, amountWei, txHash, reason...), as the order was in that transaction
     */
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** when notify_dispatch fanned it out (null: still to do; the coalesced dispatch takes these, oldest first) */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [
    index('notification_events_order_idx').on(t.orderId),
    index('notification_events_undispatched_idx').on(t.createdAt).where(sql`${t.dispatchedAt} is null`),
    check('notification_events_type', sql.raw(`type in (${eventTypeList})`)),
    check(
      'notification_events_one_subject',
      sql`num_nonnulls(${t.orderId}, ${t.redemptionId}, ${t.complianceOperationId}) <= 1`,
    ),
  ],
)

/**
 * An admin's webhook subscription. The signing secret is stored encrypted (AES-256-GCM
 * under WEBHOOK_SECRETS_KEY, the row id as associated data: lib/web/notifications/sealSecret);
 * it is shown once, at creation. A deleted endpoint keeps its row (its deliveries' history).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secretCiphertext: text('secret_ciphertext').notNull(),
    /** during a rotation: the secret before it, sealed, signing beside the new one until previous_secret_expires_at */
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_created_idx').on(t.createdAt.desc())],
)

/**
 * One event to one endpoint: the claim of "once per recipient". A worker claims it
 * (claim_token, claimed_until = now + lease) before sending and completes it after;
 * a claim left by a crash expires and the delivery is sent again (a late duplicate at
 * worst, never a loss). `delivered` is final: never sent again except by an admin's
 * redeliver.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => notificationEvents.id),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    /** pending, delivered, dead (attempts exhausted), cancelled (endpoint deleted) */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    claimToken: uuid('claim_token'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_deliveries_event_endpoint').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc()),
    check('webhook_deliveries_status', sql`${t.status} in ('pending', 'delivered', 'dead', 'cancelled')`),
  ],
)

/** Each POST of a delivery: its answer (status, latency, the first bytes of the body) or error. Append-only. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer('attempt').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    ok: boolean('ok').notNull(),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    workerId: text('worker_id'),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
)

/** One event's email to one address: the same claim as a webhook delivery (sent once, a late duplicate at worst). */
export const emailDeliveries = pgTable(
  'email_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => notificationEvents.id),
    address: text('address').notNull(),
    /** pending, sent, dead */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    claimToken: uuid('claim_token'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    messageId: text('message_id'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('email_deliveries_event_address').on(t.eventId, t.address),
    check('email_deliveries_status', sql`${t.status} in ('pending', 'sent', 'dead')`),
  ],
)
