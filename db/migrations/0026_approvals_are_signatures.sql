-- Approvals are signatures (docs/decisions/043): signing keys bound to users, approvers'
-- signatures per order, each order's fixed intent deadline, and the custodian's signature
-- of each bar list. Lists imported before this have no signature and back no new mint.
CREATE TABLE "mint_order_signatures" (
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"signer_address" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mint_order_signatures_order_id_user_id_pk" PRIMARY KEY("order_id","user_id"),
	CONSTRAINT "mint_order_signatures_signer_key" UNIQUE("order_id","signer_address")
);
--> statement-breakpoint
CREATE TABLE "user_signing_keys" (
	"address" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"binding_signature" text NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_signing_keys_address_lower" CHECK ("user_signing_keys"."address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
ALTER TABLE "mint_orders" ADD COLUMN "intent_deadline" timestamp with time zone DEFAULT date_trunc('second', now()) + interval '7 days' NOT NULL;--> statement-breakpoint
ALTER TABLE "bar_lists" ADD COLUMN "bars_root" text;--> statement-breakpoint
ALTER TABLE "bar_lists" ADD COLUMN "total_fine_wei" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "bar_lists" ADD COLUMN "custodian_address" text;--> statement-breakpoint
ALTER TABLE "bar_lists" ADD COLUMN "custodian_signature" text;--> statement-breakpoint
ALTER TABLE "mint_order_signatures" ADD CONSTRAINT "mint_order_signatures_order_id_mint_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mint_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mint_order_signatures" ADD CONSTRAINT "mint_order_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_signing_keys" ADD CONSTRAINT "user_signing_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_signing_keys_user_idx" ON "user_signing_keys" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "bar_lists" ADD CONSTRAINT "bar_lists_signed_whole" CHECK (num_nonnulls("bar_lists"."bars_root", "bar_lists"."total_fine_wei", "bar_lists"."custodian_address", "bar_lists"."custodian_signature") in (0, 4));