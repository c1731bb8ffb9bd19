CREATE TYPE "public"."bar_status" AS ENUM('available', 'reserved', 'backing', 'missing', 'withdrawn');--> statement-breakpoint
CREATE TABLE "bar_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vault" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"content_sha256" text NOT NULL,
	"imported_by" uuid,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"bar_count" integer NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"withdrawn" integer DEFAULT 0 NOT NULL,
	"missing" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"conflicts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb,
	CONSTRAINT "bar_lists_vault_as_of_content_key" UNIQUE("vault","as_of","content_sha256")
);
--> statement-breakpoint
ALTER TABLE "vault_bars" DROP CONSTRAINT "vault_bars_serial_refiner_key";--> statement-breakpoint
DROP INDEX "vault_bars_serial_refiner_ci_key";--> statement-breakpoint
DROP INDEX "mint_order_bars_order_idx";--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "vault" text;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "serial_key" text;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "refiner_key" text;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "status" "bar_status" DEFAULT 'available' NOT NULL;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "last_list_id" uuid;--> statement-breakpoint
ALTER TABLE "vault_bars" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Data migration (hand-written). Before this migration a bar was typed in by the intake,
-- one row per bar, linked to exactly one order (mint_order_bars' key was bar_id). Each bar
-- takes its order's vault, and a status from its order: confirmed -> backing; failed,
-- cancelled (and rejected, once that status exists) -> withdrawn and free; any other
-- (open) status -> reserved by it. Compared as text, so an order status added by a later
-- migration cannot break this one. None of these bars was ever on a custodian's list
-- (last_list_id stays null): a bar freed later becomes withdrawn, not available.
UPDATE "vault_bars" b SET
	"vault" = o."vault",
	"status" = (CASE
		WHEN o."status"::text = 'confirmed' THEN 'backing'
		WHEN o."status"::text IN ('failed', 'cancelled', 'rejected') THEN 'withdrawn'
		ELSE 'reserved' END)::"bar_status",
	"order_id" = CASE WHEN o."status"::text IN ('failed', 'cancelled', 'rejected') THEN NULL ELSE o."id" END
FROM "mint_order_bars" mb JOIN "mint_orders" o ON o."id" = mb."order_id"
WHERE mb."bar_id" = b."id";--> statement-breakpoint
-- a bar without an order (none are written so, but a hand-made row may exist): free, of no known vault
UPDATE "vault_bars" SET "vault" = 'UNKNOWN', "status" = 'withdrawn', "order_id" = NULL WHERE "vault" IS NULL;--> statement-breakpoint
-- the keys: upper case, spaces and dashes removed (lib/vault/normalizeBarKey.ts for ASCII text)
UPDATE "vault_bars" SET
	"serial_key" = upper(regexp_replace("serial", '[[:space:]-]+', '', 'g')),
	"refiner_key" = upper(regexp_replace("refiner", '[[:space:]-]+', '', 'g'));--> statement-breakpoint
-- Free text let one physical bar be typed twice ('AB-1' and 'AB1'). The row holding an
-- open order (else the oldest) keeps the key; the others get a key no list can produce
-- (a normalized key never contains a dash), so they stay visible but can never be reserved.
WITH ranked AS (
	SELECT "id", row_number() OVER (
		PARTITION BY "serial_key", "refiner_key"
		ORDER BY ("order_id" IS NOT NULL) DESC, "created_at", "id") AS n
	FROM "vault_bars")
UPDATE "vault_bars" b SET "serial_key" = b."serial_key" || '-DUP-' || r.n::text
FROM ranked r WHERE r."id" = b."id" AND r.n > 1;--> statement-breakpoint
ALTER TABLE "vault_bars" ALTER COLUMN "vault" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "vault_bars" ALTER COLUMN "serial_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "vault_bars" ALTER COLUMN "refiner_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bar_lists" ADD CONSTRAINT "bar_lists_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bar_lists_vault_as_of_idx" ON "bar_lists" USING btree ("vault","as_of" DESC NULLS LAST,"imported_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bar_lists_imported_at_idx" ON "bar_lists" USING btree ("imported_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "vault_bars" ADD CONSTRAINT "vault_bars_order_id_mint_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mint_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vault_bars_vault_status_idx" ON "vault_bars" USING btree ("vault","status");--> statement-breakpoint
CREATE INDEX "vault_bars_vault_keys_idx" ON "vault_bars" USING btree ("vault","serial_key","refiner_key");--> statement-breakpoint
CREATE INDEX "vault_bars_order_idx" ON "vault_bars" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "mint_order_bars_bar_idx" ON "mint_order_bars" USING btree ("bar_id");--> statement-breakpoint
ALTER TABLE "mint_order_bars" DROP CONSTRAINT "mint_order_bars_pkey";
--> statement-breakpoint
ALTER TABLE "mint_order_bars" ADD CONSTRAINT "mint_order_bars_pkey" PRIMARY KEY("order_id","bar_id");--> statement-breakpoint
ALTER TABLE "vault_bars" ADD CONSTRAINT "vault_bars_key" UNIQUE("serial_key","refiner_key");--> statement-breakpoint
ALTER TABLE "vault_bars" ADD CONSTRAINT "vault_bars_status_order" CHECK (("vault_bars"."status" in ('available', 'withdrawn') and "vault_bars"."order_id" is null)
        or ("vault_bars"."status" in ('reserved', 'backing') and "vault_bars"."order_id" is not null)
        or "vault_bars"."status" = 'missing');--> statement-breakpoint
-- Room on each page for an import's rewrite of last_list_id (an unindexed column): the
-- update of up to 100,000 rows then stays on the page (HOT) and skips the indexes.
ALTER TABLE "vault_bars" SET (fillfactor = 80);
