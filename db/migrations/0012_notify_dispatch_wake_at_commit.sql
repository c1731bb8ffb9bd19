-- Decision 018, amended (issue 14): the ONE notify_dispatch job is woken AT COMMIT by a
-- deferred constraint trigger, no longer inside public.record_mint_event. Inside it, the
-- keyed job's row was locked from the first event of a transaction to its commit: every
-- other transaction recording an event (another signer's confirmations, the intake's
-- awaiting_approval) waited on that one row for the rest of the first one's work, and a
-- transaction that locked a second order after it could deadlock with one holding that
-- order and waiting on the job. At commit every order lock is already taken: the job's
-- row is held only while the commit runs.
-- The event is still written in the order's transaction (the outbox), and its wake-up
-- still commits with it or not at all (a failing add_job fails the commit).
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
  return v_id;
end
$$;
--> statement-breakpoint
-- Wakes the ONE notify_dispatch job (key 'notify_dispatch', lib/jobs/jobKeys.ts
-- NOTIFY_DISPATCH_JOB_KEY), which fans out every undispatched event: preserve_run_at, so a
-- burst updates one waiting job instead of adding one per event; once per transaction (a
-- transaction-local setting). Why no event is stranded: an add_job that returns a row has
-- inserted or updated the keyed job in THIS transaction, so no worker can start that job
-- before this commit (row-locked, or not yet visible) and its run sees the events. If the
-- keyed job is running, add_job takes its key away and adds a new one (the run itself
-- lets go of its key first: lib/jobs/detachRunningJobKey); if a worker took the job
-- between add_job's two statements, it returns no row: call it again (that call sees the
-- running job and adds a new one).
create or replace function public.wake_notify_dispatch()
returns trigger
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  v_job_id bigint;
begin
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
      raise exception 'wake_notify_dispatch: the notify_dispatch job could not be added';
    end if;
    perform set_config('mintdesk.notify_dispatch_woken', '1', true);
  end if;
  return null;
end
$$;
--> statement-breakpoint
drop trigger if exists notification_events_wake_dispatch on notification_events;
--> statement-breakpoint
create constraint trigger notification_events_wake_dispatch
  after insert on notification_events
  deferrable initially deferred
  for each row execute function public.wake_notify_dispatch();
