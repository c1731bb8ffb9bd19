CREATE TYPE "public"."user_role" AS ENUM('staff', 'admin');--> statement-breakpoint
CREATE TYPE "public"."mint_status" AS ENUM('pending', 'submitted', 'confirmed', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."nonce_state" AS ENUM('reserved', 'signed', 'mined', 'released');--> statement-breakpoint
CREATE TYPE "public"."nonce_use" AS ENUM('mint', 'gap_fill');--> statement-breakpoint
CREATE TYPE "public"."tx_kind" AS ENUM('mint', 'replacement', 'gap_fill');--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "user_role" NOT NULL,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "vault_bars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"refiner" text NOT NULL,
	"year" integer NOT NULL,
	"gross_oz" numeric(12, 3) NOT NULL,
	"fineness" numeric(5, 2) NOT NULL,
	"fine_oz" numeric(12, 3) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vault_bars_serial_refiner_key" UNIQUE("serial","refiner"),
	CONSTRAINT "vault_bars_fineness_range" CHECK ("vault_bars"."fineness" >= 900 and "vault_bars"."fineness" <= 999.99),
	CONSTRAINT "vault_bars_fine_le_gross" CHECK ("vault_bars"."fine_oz" > 0 and "vault_bars"."fine_oz" <= "vault_bars"."gross_oz")
);
--> statement-breakpoint
CREATE TABLE "mint_order_bars" (
	"bar_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "mint_order_bars_pkey" PRIMARY KEY("bar_id")
);
--> statement-breakpoint
CREATE TABLE "mint_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"amount_wei" numeric(78, 0) NOT NULL,
	"status" "mint_status" DEFAULT 'pending' NOT NULL,
	"vault" text NOT NULL,
	"receipt_ref" text NOT NULL,
	"document_sha256" text NOT NULL,
	"requested_by" uuid NOT NULL,
	"idempotency_key" text,
	"request_hash" text,
	"accepted_response" jsonb,
	"job_id" bigint,
	"signer_address" text,
	"nonce" bigint,
	"tx_hash" text,
	"block_number" bigint,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "mint_orders_idempotency_key" UNIQUE("requested_by","idempotency_key"),
	CONSTRAINT "mint_orders_signer_nonce_key" UNIQUE("signer_address","nonce"),
	CONSTRAINT "mint_orders_amount_positive" CHECK ("mint_orders"."amount_wei" > 0)
);
--> statement-breakpoint
CREATE TABLE "chain_txs" (
	"hash" text PRIMARY KEY NOT NULL,
	"signer_address" text NOT NULL,
	"nonce" bigint NOT NULL,
	"order_id" uuid,
	"kind" "tx_kind" NOT NULL,
	"raw_tx" text NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"gas_limit" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"broadcast_at" timestamp with time zone,
	"mined_block" bigint
);
--> statement-breakpoint
CREATE TABLE "signer_nonces" (
	"signer_address" text NOT NULL,
	"nonce" bigint NOT NULL,
	"use" "nonce_use" NOT NULL,
	"order_id" uuid,
	"state" "nonce_state" DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signer_nonces_pkey" PRIMARY KEY("signer_address","nonce")
);
--> statement-breakpoint
CREATE TABLE "signers" (
	"address" text PRIMARY KEY NOT NULL,
	"kms_key_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"next_nonce" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signers_kms_key_id_unique" UNIQUE("kms_key_id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" uuid,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"detail" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid,
	"job_id" bigint,
	"task" text NOT NULL,
	"event" text NOT NULL,
	"attempt" integer,
	"detail" text,
	"error" text,
	"actor" text,
	"duration_ms" integer,
	"data" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_records" (
	"job_id" bigint PRIMARY KEY NOT NULL,
	"task" text NOT NULL,
	"order_id" uuid,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"last_error" text,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mint_order_bars" ADD CONSTRAINT "mint_order_bars_bar_id_vault_bars_id_fk" FOREIGN KEY ("bar_id") REFERENCES "public"."vault_bars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mint_order_bars" ADD CONSTRAINT "mint_order_bars_order_id_mint_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mint_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD CONSTRAINT "mint_orders_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_signer_address_signers_address_fk" FOREIGN KEY ("signer_address") REFERENCES "public"."signers"("address") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_order_id_mint_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mint_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_signer_address_signers_address_fk" FOREIGN KEY ("signer_address") REFERENCES "public"."signers"("address") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_order_id_mint_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mint_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mint_order_bars_order_idx" ON "mint_order_bars" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "mint_orders_created_idx" ON "mint_orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mint_orders_requested_by_created_idx" ON "mint_orders" USING btree ("requested_by","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mint_orders_status_idx" ON "mint_orders" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chain_txs_signer_nonce_idx" ON "chain_txs" USING btree ("signer_address","nonce");--> statement-breakpoint
CREATE INDEX "chain_txs_order_idx" ON "chain_txs" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "signer_nonces_order_idx" ON "signer_nonces" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "job_events_order_idx" ON "job_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "job_events_job_idx" ON "job_events" USING btree ("job_id","at");--> statement-breakpoint
CREATE INDEX "job_events_task_at_idx" ON "job_events" USING btree ("task","at");--> statement-breakpoint
CREATE INDEX "job_records_state_idx" ON "job_records" USING btree ("state","job_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "job_records_task_state_idx" ON "job_records" USING btree ("task","state","job_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "job_records_order_idx" ON "job_records" USING btree ("order_id");