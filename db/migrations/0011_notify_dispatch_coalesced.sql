ALTER TABLE "notification_events" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "notification_events_undispatched_idx" ON "notification_events" USING btree ("created_at") WHERE "notification_events"."dispatched_at" is null;--> statement-breakpoint
-- Decision 018, amended (issue 14): the dispatch is COALESCED. Events written before this
-- migration were dispatched by their own per-event job (a job still queued carries its
-- eventId and re-opens its event when it runs: worker/tasks/notifyDispatch.ts).
update "notification_events" set "dispatched_at" = "created_at" where "dispatched_at" is null;
--> statement-breakpoint
-- Issue 16 + issue 14: the outbox of order events. One call, in the transaction that
-- changes the order: the event row (only while the order is in one of p_from, locked FOR
-- UPDATE so a concurrent change is seen) and ONE wake-up of the single notify_dispatch job
-- (job key 'notify_dispatch', lib/jobs/jobKeys.ts NOTIFY_DISPATCH_JOB_KEY), which fans out
-- every undispatched event. preserve_run_at: a burst updates one waiting job instead of
-- adding one per event. Why this cannot strand an event: an add_job that returns a row has
-- inserted or updated the keyed job in THIS transaction, so that job is row-locked (or
-- invisible) until we commit and no worker can start it before our event is visible. If
-- the keyed job is running, add_job takes its key away and adds a new one; if a worker
-- took the job between add_job's two statements it returns no row: then call it again
-- (the second call sees the running job and adds a new one). Once per transaction
-- (a transaction-local setting, undone by a rollback of the savepoint that set it): a
-- confirmation of many orders in one transaction touches the job once.
-- Returns the event id, or null when the order was not in p_from (no change, no event).
-- SECURITY INVOKER: the caller's grants.
create or replace function public.record_mint_event(p_type text, p_order_id uuid, p_status text, p_from text[], p_data jsonb)
returns uuid
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  v_id uuid;
  v_job_id bigint;
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
  if current_setting('mintdesk.notify_dispatch_woken', true) is distinct from '1' then
    for i in 1..10 loop
      select j.id into v_job_id from graphile_worker.add_job(
        'notify_dispatch',
        '{}'::json,
        job_key => 'notify_dispatch',
        job_key_mode => 'preserve_run_at',
        max_attempts => 10,
        priority => 10,
        flags => array['notify']
      ) j;
      exit when v_job_id is not null;
    end loop;
    if v_job_id is null then
      raise exception 'record_mint_event: the notify_dispatch job could not be added';
    end if;
    perform set_config('mintdesk.notify_dispatch_woken', '1', true);
  end if;
  return v_id;
end
$$;
