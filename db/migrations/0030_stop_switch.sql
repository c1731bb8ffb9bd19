-- The stop switch (docs/decisions/052-stop-switch.md): one row, not stopped.
CREATE TABLE "signing_switch" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"stopped" boolean DEFAULT false NOT NULL,
	"reason" text,
	"changed_by" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"auto" boolean DEFAULT false NOT NULL,
	CONSTRAINT "signing_switch_one_row" CHECK ("signing_switch"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "signing_switch" ("id", "stopped") VALUES (1, false) ON CONFLICT DO NOTHING;
