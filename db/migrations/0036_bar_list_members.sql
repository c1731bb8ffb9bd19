CREATE TABLE "bar_list_members" (
	"list_id" uuid NOT NULL,
	"bar_id" uuid NOT NULL,
	CONSTRAINT "bar_list_members_pkey" PRIMARY KEY("list_id","bar_id")
);
--> statement-breakpoint
-- What can be recovered of the lists imported before this table (docs/decisions/061-attestation-pack.md): each bar's
-- last_list_id names the latest list that had it, so every vault's latest list is whole; an older list keeps only the
-- bars that no later list had (a bar on a later list was on it too, or not: that is not known).
INSERT INTO "bar_list_members" ("list_id", "bar_id")
SELECT b."last_list_id", b."id" FROM "vault_bars" b
WHERE b."last_list_id" IS NOT NULL AND EXISTS (SELECT 1 FROM "bar_lists" l WHERE l."id" = b."last_list_id");
