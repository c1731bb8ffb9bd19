-- The security review's controls (see docs/security.md):
-- runtime_settings: the settings web and worker must share, each process's value as it last
-- started (APPROVAL_THRESHOLD_OZ), so a process whose value differs from the other's refuses
-- to start in production (lib/config/checkSharedSettings.ts).
-- sqs_outbox.generation / sqs_dead_letters.generation: a retry or cancel of an SQS job bumps
-- its row's generation; a message of an older one is stale wherever it is (consumer, DLQ scan,
-- DLQ page), so a job retried from the jobs page and from the DLQ page has one live message.
CREATE TABLE "runtime_settings" (
	"process" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "runtime_settings_pkey" PRIMARY KEY("process","name"),
	CONSTRAINT "runtime_settings_process" CHECK ("runtime_settings"."process" in ('web', 'worker'))
);
--> statement-breakpoint
ALTER TABLE "sqs_dead_letters" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sqs_outbox" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;