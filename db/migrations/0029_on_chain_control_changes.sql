-- Control changes that live on chain go through the one send pipeline (docs/decisions/051):
-- control_changes gains its pipeline columns and statuses, control_change_signatures holds the
-- admins' EIP-712 signatures, chain_txs and signer_nonces reference a change by control_change_id.
-- The operation columns are generated again from both references; operation_kind is made anew
-- with its second value (a value added by ALTER TYPE cannot be used in the migrations'
-- one transaction, and the generated expression names it).
ALTER TYPE "public"."nonce_use" ADD VALUE 'control_change';
--> statement-breakpoint
ALTER TYPE "public"."tx_kind" ADD VALUE 'control_change';
--> statement-breakpoint
ALTER TYPE "public"."control_change_status" ADD VALUE 'pending';
--> statement-breakpoint
ALTER TYPE "public"."control_change_status" ADD VALUE 'submitted';
--> statement-breakpoint
ALTER TYPE "public"."control_change_status" ADD VALUE 'failed';
--> statement-breakpoint
ALTER TABLE "chain_txs" DROP COLUMN "operation";
--> statement-breakpoint
ALTER TABLE "signer_nonces" DROP COLUMN "operation";
--> statement-breakpoint
DROP TYPE "public"."operation_kind";
--> statement-breakpoint
CREATE TYPE "public"."operation_kind" AS ENUM('mint', 'control_change');
--> statement-breakpoint
CREATE TABLE "control_change_signatures" (
	"change_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"signer_address" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "control_change_signatures_change_id_user_id_pk" PRIMARY KEY("change_id","user_id"),
	CONSTRAINT "control_change_signatures_signer_key" UNIQUE("change_id","signer_address"),
	CONSTRAINT "control_change_signatures_signer_lower" CHECK ("control_change_signatures"."signer_address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "control_change_id" uuid;
--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD COLUMN "control_change_id" uuid;
--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "operation" "operation_kind" GENERATED ALWAYS AS (case when order_id is not null then 'mint'::operation_kind when control_change_id is not null then 'control_change'::operation_kind end) STORED;
--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD COLUMN "operation" "operation_kind" GENERATED ALWAYS AS (case when order_id is not null then 'mint'::operation_kind when control_change_id is not null then 'control_change'::operation_kind end) STORED;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "deadline" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "signer_address" text;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "nonce" bigint;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "tx_hash" text;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "block_number" bigint;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "failure_reason" text;
--> statement-breakpoint
ALTER TABLE "control_changes" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "control_change_signatures" ADD CONSTRAINT "control_change_signatures_change_id_control_changes_id_fk" FOREIGN KEY ("change_id") REFERENCES "public"."control_changes"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "control_change_signatures" ADD CONSTRAINT "control_change_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_control_change_id_control_changes_id_fk" FOREIGN KEY ("control_change_id") REFERENCES "public"."control_changes"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_control_change_id_control_changes_id_fk" FOREIGN KEY ("control_change_id") REFERENCES "public"."control_changes"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "chain_txs_control_change_idx" ON "chain_txs" USING btree ("control_change_id");
--> statement-breakpoint
CREATE INDEX "signer_nonces_control_change_idx" ON "signer_nonces" USING btree ("control_change_id");
--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_one_operation" CHECK (num_nonnulls("chain_txs"."order_id", "chain_txs"."control_change_id") <= 1);
--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD CONSTRAINT "signer_nonces_one_operation" CHECK (num_nonnulls("signer_nonces"."order_id", "signer_nonces"."control_change_id") <= 1);
