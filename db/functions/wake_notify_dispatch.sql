-- The deferred constraint trigger notification_events_wake_dispatch: at the commit
-- of a transaction that recorded an order event, wakes the ONE notify_dispatch job (key
-- 'notify_dispatch', preserve_run_at; through public.enqueue_job, without history), once per
-- transaction. An add that returns no job (a worker took it between add_job's two statements)
-- is made again: that call sees the running job and adds a new one.
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
      -- no history: the keyed job is one for every event; its runs keep their own timeline
      v_job_id := public.enqueue_job(jsonb_build_object(
        'task', 'notify_dispatch',
        'payload', '{}',
        'job_key', 'notify_dispatch',
        'job_key_mode', 'preserve_run_at',
        'max_attempts', 10,
        'priority', 10,
        'flags', jsonb_build_array('notify'),
        'history', false
      ));
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
