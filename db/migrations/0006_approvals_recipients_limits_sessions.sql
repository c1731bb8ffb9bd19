-- ALTER TYPE ... ADD VALUE runs inside the migration transaction (PostgreSQL 12+); the new
-- values cannot be used in the same transaction, so no later migration of one batch may
-- write them (drizzle applies all pending migrations in one transaction).
ALTER TYPE "public"."user_role" ADD VALUE 'approver';--> statement-breakpoint
ALTER TYPE "public"."mint_status" ADD VALUE 'awaiting_approval';--> statement-breakpoint
ALTER TYPE "public"."mint_status" ADD VALUE 'rejected';--> statement-breakpoint
CREATE TABLE "allowed_recipients" (
	"address" text NOT NULL,
	"label" text NOT NULL,
	"added_by" uuid,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "allowed_recipients_pkey" PRIMARY KEY("address"),
	CONSTRAINT "allowed_recipients_address_lower" CHECK ("allowed_recipients"."address" = lower("allowed_recipients"."address") and "allowed_recipients"."address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
CREATE TABLE "mint_limits" (
	"id" boolean DEFAULT true NOT NULL,
	"max_order_wei" numeric(78, 0),
	"daily_cap_wei" numeric(78, 0),
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mint_limits_pkey" PRIMARY KEY("id"),
	CONSTRAINT "mint_limits_singleton" CHECK ("mint_limits"."id"),
	CONSTRAINT "mint_limits_positive" CHECK (("mint_limits"."max_order_wei" is null or "mint_limits"."max_order_wei" > 0) and ("mint_limits"."daily_cap_wei" is null or "mint_limits"."daily_cap_wei" > 0))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD COLUMN "rejected_by" uuid;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD COLUMN "rejected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "allowed_recipients" ADD CONSTRAINT "allowed_recipients_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mint_limits" ADD CONSTRAINT "mint_limits_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD CONSTRAINT "mint_orders_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD CONSTRAINT "mint_orders_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_identity_key" ON "users" USING btree ("oidc_issuer","oidc_subject") WHERE "users"."oidc_issuer" is not null;--> statement-breakpoint
ALTER TABLE "mint_orders" ADD CONSTRAINT "mint_orders_not_self_approved" CHECK ("mint_orders"."approved_by" is null or "mint_orders"."approved_by" <> "mint_orders"."requested_by");--> statement-breakpoint
ALTER TABLE "mint_orders" ADD CONSTRAINT "mint_orders_not_self_rejected" CHECK ("mint_orders"."rejected_by" is null or "mint_orders"."rejected_by" <> "mint_orders"."requested_by");