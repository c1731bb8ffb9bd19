CREATE TABLE "email_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"message_id" text,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_deliveries_event_address" UNIQUE("event_id","address"),
	CONSTRAINT "email_deliveries_status" CHECK ("email_deliveries"."status" in ('pending', 'sent', 'dead'))
);
--> statement-breakpoint
CREATE TABLE "notification_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"order_id" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_events_type" CHECK (type in ('mint.awaiting_approval', 'mint.confirmed', 'mint.failed', 'mint.dead_letter'))
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_event_endpoint" UNIQUE("event_id","endpoint_id"),
	CONSTRAINT "webhook_deliveries_status" CHECK ("webhook_deliveries"."status" in ('pending', 'delivered', 'dead', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"ok" boolean NOT NULL,
	"error" text,
	"response_excerpt" text,
	"worker_id" text
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_event_id_notification_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."notification_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_order_id_mint_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mint_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_notification_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."notification_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_events_order_idx" ON "notification_events" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "webhook_delivery_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_created_idx" ON "webhook_endpoints" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
-- Issue 16: the outbox of order events. One call, in the transaction that changes the
-- order: the event row (only while the order is in one of p_from, locked FOR UPDATE so a
-- concurrent change is seen) and its notify_dispatch job (lib/jobs/jobKeys.ts
-- TASK.notifyDispatch; flag 'notify' bounds how many notification jobs a worker runs at
-- once, priority 10 lets mint jobs go first). Returns the event id, or null when the
-- order was not in p_from (no change, no event). SECURITY INVOKER: the caller's grants.
create or replace function public.record_mint_event(p_type text, p_order_id uuid, p_status text, p_from text[], p_data jsonb)
returns uuid
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  v_id uuid;
begin
  insert into notification_events (type, order_id, payload)
  select p_type, o.id,
    jsonb_build_object(
      'orderId', o.id,
      'status', coalesce(p_status, o.status::text),
      'to', o.to_address,
      'amountWei', o.amount_wei::text,
      'txHash', o.tx_hash
    ) || coalesce(p_data, '{}'::jsonb)
  from (
    select m.id, m.status, m.to_address, m.amount_wei, m.tx_hash from mint_orders m
    where m.id = p_order_id and (p_from is null or m.status::text = any(p_from))
    for update
  ) o
  returning id into v_id;
  if v_id is null then
    return null;
  end if;
  perform graphile_worker.add_job(
    'notify_dispatch',
    json_build_object('eventId', v_id),
    job_key => 'notify_dispatch:' || v_id::text,
    max_attempts => 10,
    priority => 10,
    flags => array['notify']
  );
  return v_id;
end
$$;
--> statement-breakpoint
-- The intake's hook (decision 016, lib/mint/createMintOrder's SQL function): an order
-- written as awaiting_approval gets its mint.awaiting_approval event in that statement.
create or replace function public.on_mint_awaiting_approval(p_order_id uuid)
returns void
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
begin
  perform public.record_mint_event('mint.awaiting_approval', p_order_id, 'awaiting_approval', array['awaiting_approval'], null);
end
$$;
