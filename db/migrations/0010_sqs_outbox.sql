CREATE TABLE "sqs_dead_letters" (
	"message_id" text PRIMARY KEY NOT NULL,
	"job_id" bigint,
	"order_id" uuid,
	"body" text NOT NULL,
	"receive_count" integer NOT NULL,
	"sent_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retry_requested_at" timestamp with time zone,
	"retry_requested_by" text
);
--> statement-breakpoint
CREATE TABLE "sqs_outbox" (
	"job_id" bigint PRIMARY KEY NOT NULL,
	"task" text NOT NULL,
	"order_id" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"message_id" text,
	"sends" integer DEFAULT 0 NOT NULL,
	"last_send_error" text
);
--> statement-breakpoint
CREATE INDEX "sqs_dead_letters_job_idx" ON "sqs_dead_letters" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "sqs_outbox_unsent_idx" ON "sqs_outbox" USING btree ("job_id") WHERE "sqs_outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "sqs_outbox_order_idx" ON "sqs_outbox" USING btree ("order_id");
--> statement-breakpoint
-- The SQS transport's enqueue (issue 15, decision 021): the outbox row, the job's history row and its
-- 'enqueued' event, in the caller's transaction (the intake's create_mint_order or the approval). The job id
-- comes from graphile-worker's job id sequence: SQS and graphile jobs share job_records without colliding.
create or replace function public.enqueue_mint_send_sqs(p_order_id uuid, p_max_attempts int, p_actor text, p_detail text)
returns bigint
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  v_job_id bigint := nextval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'));
begin
  insert into sqs_outbox (job_id, task, order_id, payload)
    values (v_job_id, 'mint_send', p_order_id, jsonb_build_object('orderId', p_order_id, 'jobId', v_job_id::text));
  insert into job_records (job_id, task, order_id, state, attempts, max_attempts, payload)
    values (v_job_id, 'mint_send', p_order_id, 'queued', 0, p_max_attempts, jsonb_build_object('orderId', p_order_id));
  insert into job_events (order_id, job_id, task, event, actor, detail)
    values (p_order_id, v_job_id, 'mint_send', 'enqueued', p_actor, coalesce(p_detail, 'mint_send') || ' (SQS, through the outbox)');
  return v_job_id;
end
$$;
-- EXECUTE stays with PUBLIC (the default): SECURITY INVOKER, so it can write only what the caller's own table grants
-- allow (sqs_outbox, job_records, job_events: db/roles/tableGrants.ts)
