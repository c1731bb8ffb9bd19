-- Redemptions and compliance operations join the one send pipeline (docs/decisions/055 and 056): deposits to the
-- redemption address, the redemptions that burn them with their bars and approvers' signatures, compliance
-- operations (freeze, unfreeze, pause, unpause) with theirs; chain_txs and signer_nonces reference them by
-- redemption_id and compliance_operation_id. A bar a burn took out of backing is redeemed. operation_kind is made
-- anew with its four values (a value added by ALTER TYPE cannot be used in the migrations' one transaction, and
-- the generated expression names it); the bars' check compares 'redeemed' as text for the same reason.
CREATE TYPE "public"."compliance_action" AS ENUM('freeze', 'unfreeze', 'pause', 'unpause');--> statement-breakpoint
CREATE TYPE "public"."compliance_status" AS ENUM('awaiting_approval', 'pending', 'submitted', 'applied', 'failed', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."redemption_status" AS ENUM('awaiting_approval', 'pending', 'submitted', 'burned', 'failed', 'rejected', 'cancelled');--> statement-breakpoint
ALTER TYPE "public"."nonce_use" ADD VALUE 'redemption';--> statement-breakpoint
ALTER TYPE "public"."nonce_use" ADD VALUE 'compliance';--> statement-breakpoint
ALTER TYPE "public"."tx_kind" ADD VALUE 'redemption';--> statement-breakpoint
ALTER TYPE "public"."tx_kind" ADD VALUE 'compliance';--> statement-breakpoint
ALTER TYPE "public"."bar_status" ADD VALUE 'redeemed';--> statement-breakpoint
CREATE TABLE "compliance_operations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" "compliance_action" NOT NULL,
	"account" text,
	"reason" text NOT NULL,
	"batch_id" uuid,
	"status" "compliance_status" DEFAULT 'awaiting_approval' NOT NULL,
	"requested_by" uuid NOT NULL,
	"intent_deadline" timestamp with time zone NOT NULL,
	"signer_address" text,
	"nonce" bigint,
	"tx_hash" text,
	"block_number" bigint,
	"failure_reason" text,
	"rejected_by" uuid,
	"rejected_at" timestamp with time zone,
	"rejection_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	CONSTRAINT "compliance_operations_account" CHECK (("compliance_operations"."action" in ('freeze', 'unfreeze')) = ("compliance_operations"."account" is not null)),
	CONSTRAINT "compliance_operations_account_lower" CHECK ("compliance_operations"."account" is null or "compliance_operations"."account" ~ '^0x[0-9a-f]{40}$'),
	CONSTRAINT "compliance_operations_reason" CHECK (length("compliance_operations"."reason") between 1 and 500),
	CONSTRAINT "compliance_operations_rejected_reason" CHECK (("compliance_operations"."status" = 'rejected') = ("compliance_operations"."rejection_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "compliance_signatures" (
	"operation_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"signer_address" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_signatures_operation_id_user_id_pk" PRIMARY KEY("operation_id","user_id"),
	CONSTRAINT "compliance_signatures_signer_key" UNIQUE("operation_id","signer_address"),
	CONSTRAINT "compliance_signatures_signer_lower" CHECK ("compliance_signatures"."signer_address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"amount_wei" numeric(78, 0) NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposits_pkey" PRIMARY KEY("tx_hash","log_index"),
	CONSTRAINT "deposits_tx_hash_lower" CHECK ("deposits"."tx_hash" ~ '^0x[0-9a-f]{64}$'),
	CONSTRAINT "deposits_from_lower" CHECK ("deposits"."from_address" ~ '^0x[0-9a-f]{40}$'),
	CONSTRAINT "deposits_amount_positive" CHECK ("deposits"."amount_wei" > 0)
);
--> statement-breakpoint
CREATE TABLE "redemption_bars" (
	"redemption_id" uuid NOT NULL,
	"bar_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "redemption_bars_redemption_id_bar_id_pk" PRIMARY KEY("redemption_id","bar_id"),
	CONSTRAINT "redemption_bars_position_key" UNIQUE("redemption_id","position")
);
--> statement-breakpoint
CREATE TABLE "redemption_signatures" (
	"redemption_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"signer_address" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redemption_signatures_redemption_id_user_id_pk" PRIMARY KEY("redemption_id","user_id"),
	CONSTRAINT "redemption_signatures_signer_key" UNIQUE("redemption_id","signer_address"),
	CONSTRAINT "redemption_signatures_signer_lower" CHECK ("redemption_signatures"."signer_address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
CREATE TABLE "redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deposit_tx_hash" text NOT NULL,
	"deposit_log_index" integer NOT NULL,
	"holder_address" text NOT NULL,
	"amount_wei" numeric(78, 0) NOT NULL,
	"reference" text NOT NULL,
	"status" "redemption_status" DEFAULT 'awaiting_approval' NOT NULL,
	"requested_by" uuid NOT NULL,
	"intent_deadline" timestamp with time zone NOT NULL,
	"signer_address" text,
	"nonce" bigint,
	"tx_hash" text,
	"block_number" bigint,
	"failure_reason" text,
	"rejected_by" uuid,
	"rejected_at" timestamp with time zone,
	"rejection_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"burned_at" timestamp with time zone,
	CONSTRAINT "redemptions_amount_positive" CHECK ("redemptions"."amount_wei" > 0),
	CONSTRAINT "redemptions_rejected_reason" CHECK (("redemptions"."status" = 'rejected') = ("redemptions"."rejection_reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "chain_txs" DROP CONSTRAINT "chain_txs_one_operation";--> statement-breakpoint
ALTER TABLE "signer_nonces" DROP CONSTRAINT "signer_nonces_one_operation";--> statement-breakpoint
ALTER TABLE "vault_bars" DROP CONSTRAINT "vault_bars_status_order";--> statement-breakpoint
ALTER TABLE "chain_txs" drop column "operation";--> statement-breakpoint
ALTER TABLE "signer_nonces" drop column "operation";--> statement-breakpoint
DROP TYPE "public"."operation_kind";--> statement-breakpoint
CREATE TYPE "public"."operation_kind" AS ENUM('mint', 'control_change', 'redemption', 'compliance');--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "redemption_id" uuid;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "compliance_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD COLUMN "redemption_id" uuid;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD COLUMN "compliance_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "redemption_id" uuid;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "operation" "operation_kind" GENERATED ALWAYS AS (case when order_id is not null then 'mint'::operation_kind when control_change_id is not null then 'control_change'::operation_kind when redemption_id is not null then 'redemption'::operation_kind when compliance_operation_id is not null then 'compliance'::operation_kind end) STORED;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD COLUMN "operation" "operation_kind" GENERATED ALWAYS AS (case when order_id is not null then 'mint'::operation_kind when control_change_id is not null then 'control_change'::operation_kind when redemption_id is not null then 'redemption'::operation_kind when compliance_operation_id is not null then 'compliance'::operation_kind end) STORED;--> statement-breakpoint
ALTER TABLE "compliance_operations" ADD CONSTRAINT "compliance_operations_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_operations" ADD CONSTRAINT "compliance_operations_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_signatures" ADD CONSTRAINT "compliance_signatures_operation_id_compliance_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."compliance_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_signatures" ADD CONSTRAINT "compliance_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemption_bars" ADD CONSTRAINT "redemption_bars_redemption_id_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemption_bars" ADD CONSTRAINT "redemption_bars_bar_id_vault_bars_id_fk" FOREIGN KEY ("bar_id") REFERENCES "public"."vault_bars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemption_signatures" ADD CONSTRAINT "redemption_signatures_redemption_id_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemption_signatures" ADD CONSTRAINT "redemption_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_deposit_fk" FOREIGN KEY ("deposit_tx_hash","deposit_log_index") REFERENCES "public"."deposits"("tx_hash","log_index") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "compliance_operations_status_created_idx" ON "compliance_operations" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "compliance_operations_created_idx" ON "compliance_operations" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "compliance_operations_account_idx" ON "compliance_operations" USING btree ("account");--> statement-breakpoint
CREATE INDEX "deposits_block_idx" ON "deposits" USING btree ("block_number" DESC NULLS LAST,"log_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "redemption_bars_bar_idx" ON "redemption_bars" USING btree ("bar_id");--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_one_per_deposit" ON "redemptions" USING btree ("deposit_tx_hash","deposit_log_index") WHERE "redemptions"."status" not in ('rejected', 'cancelled');--> statement-breakpoint
CREATE INDEX "redemptions_status_created_idx" ON "redemptions" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "redemptions_created_idx" ON "redemptions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_redemption_id_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_compliance_operation_id_compliance_operations_id_fk" FOREIGN KEY ("compliance_operation_id") REFERENCES "public"."compliance_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_redemption_id_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_compliance_operation_id_compliance_operations_id_fk" FOREIGN KEY ("compliance_operation_id") REFERENCES "public"."compliance_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD CONSTRAINT "vault_bars_redemption_id_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_txs_redemption_idx" ON "chain_txs" USING btree ("redemption_id");--> statement-breakpoint
CREATE INDEX "chain_txs_compliance_idx" ON "chain_txs" USING btree ("compliance_operation_id");--> statement-breakpoint
CREATE INDEX "signer_nonces_redemption_idx" ON "signer_nonces" USING btree ("redemption_id");--> statement-breakpoint
CREATE INDEX "signer_nonces_compliance_idx" ON "signer_nonces" USING btree ("compliance_operation_id");--> statement-breakpoint
CREATE INDEX "vault_bars_redemption_idx" ON "vault_bars" USING btree ("redemption_id");--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_one_operation" CHECK (num_nonnulls("chain_txs"."order_id", "chain_txs"."control_change_id", "chain_txs"."redemption_id", "chain_txs"."compliance_operation_id") <= 1);--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_one_operation" CHECK (num_nonnulls("signer_nonces"."order_id", "signer_nonces"."control_change_id", "signer_nonces"."redemption_id", "signer_nonces"."compliance_operation_id") <= 1);--> statement-breakpoint
ALTER TABLE "vault_bars" ADD CONSTRAINT "vault_bars_status_order" CHECK (("vault_bars"."status" in ('available', 'withdrawn') and "vault_bars"."order_id" is null)
        or ("vault_bars"."status" in ('reserved', 'backing') and "vault_bars"."order_id" is not null)
        or "vault_bars"."status" = 'missing'
        or ("vault_bars"."status"::text = 'redeemed' and "vault_bars"."order_id" is not null and "vault_bars"."redemption_id" is not null));