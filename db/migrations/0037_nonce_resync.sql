-- Nonce resync after a restore (docs/decisions/063-nonce-resync-after-restore.md): a nonce used on chain while the database
-- did not know it is recorded as use 'resync'; the chain events no row of the desk accounts for are kept for the admins.
ALTER TYPE "public"."nonce_use" ADD VALUE 'resync';--> statement-breakpoint
CREATE TABLE "unreconciled_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"contract_address" text NOT NULL,
	"event" text NOT NULL,
	"subject_id" text,
	"order_id" text,
	"amount_wei" numeric(78, 0),
	"reason" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution_note" text,
	CONSTRAINT "unreconciled_events_log_unique" UNIQUE("tx_hash","log_index"),
	CONSTRAINT "unreconciled_events_resolution_whole" CHECK (("unreconciled_events"."resolved_at" is null) = ("unreconciled_events"."resolved_by" is null) and ("unreconciled_events"."resolved_at" is null) = ("unreconciled_events"."resolution_note" is null))
);
--> statement-breakpoint
CREATE INDEX "unreconciled_events_open_idx" ON "unreconciled_events" USING btree ("block_number","log_index") WHERE "unreconciled_events"."resolved_at" is null;