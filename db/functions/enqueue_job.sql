-- THE enqueue: one job, in the caller's transaction (invariant 1, the outbox: the rows that
-- ask for the job and the job commit together or not at all). Its TypeScript face is
-- lib/jobs/addJobs.ts (addJob, ensureJob, enqueueFollowUp, enqueueMintSend); in SQL the
-- intake (create_mint_order) and the notification wake-up (wake_notify_dispatch) call it.
-- The only function of ours that reaches into graphile_worker (docs/decisions/011-graphile-worker-private-tables.md).
--
-- p_job, named arguments as one jsonb object (a key it does not read is refused, 22023):
--   task          text, required: the task's name (lib/jobs/jobKeys.ts TASK)
--   payload       text, required: the payload's JSON text (kept as written in the job's json;
--                 job_records gets it as jsonb)
--   transport     'postgres' (default): graphile_worker.add_job; 'sqs': an sqs_outbox row that
--                 the worker's relay sends, its job id drawn from graphile-worker's
--                 job id sequence, its message body the payload with the job's id as "jobId"
--   job_key, job_key_mode, queue_name, run_at, max_attempts (5), priority, flags (a JSON array):
--                 graphile-worker's own options (the sqs transport has none of them; a job key
--                 is left unused there: SQS has no keys)
--   order_id, actor, detail: the job's order and its 'enqueued' timeline event (detail as given:
--                 the caller redacts it; the sqs transport adds ' (SQS, through the outbox)')
--   history       true (default): the job's job_records row and its 'enqueued' event; false for
--                 a wake-up of a keyed job that keeps no history of its own (postgres only)
-- Returns the job's id, or null when graphile_worker.add_job returned no row (a worker took
-- the keyed job between add_job's two statements: nothing is written, call again).
-- SECURITY INVOKER: it writes only what the caller's own grants allow (db/roles/tableGrants.ts).
--   select public.enqueue_job(jsonb_build_object('task', 'mint_send', 'payload', '{"orderId":"..."}',
--     'job_key', 'mint_send:...', 'max_attempts', 5, 'order_id', '...', 'actor', 'a@b', 'detail', 'mint 1 oz'))
CREATE OR REPLACE FUNCTION public.enqueue_job(p_job jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
DECLARE
  v_keys text[] := ARRAY['task', 'payload', 'transport', 'job_key', 'job_key_mode', 'queue_name', 'run_at',
                         'max_attempts', 'priority', 'flags', 'order_id', 'actor', 'detail', 'history'];
  j record;
  v_unknown text[];
  v_transport text;
  v_max_attempts integer;
  v_job_id bigint;
BEGIN
  -- no key it does not read (one plain expression; the list is made only to name them)
  IF (p_job - v_keys) <> '{}'::jsonb THEN
    SELECT array_agg(k ORDER BY k) INTO v_unknown FROM jsonb_object_keys(p_job - v_keys) AS k;
    RAISE EXCEPTION 'enqueue_job: unknown keys %', v_unknown USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO j FROM jsonb_to_record(p_job) AS x(
    task text, payload text, transport text, job_key text, job_key_mode text, queue_name text,
    run_at timestamptz, max_attempts integer, priority integer, flags text[], order_id uuid,
    actor text, detail text, history boolean);
  IF j.task IS NULL OR jsonb_typeof(p_job->'payload') IS DISTINCT FROM 'string' THEN
    RAISE EXCEPTION 'enqueue_job: task and payload (the JSON text) are required' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  v_transport := coalesce(j.transport, 'postgres');
  v_max_attempts := coalesce(j.max_attempts, 5);

  IF v_transport = 'postgres' THEN
    SELECT a.id INTO v_job_id FROM graphile_worker.add_job(
      j.task,
      j.payload::json,
      queue_name => j.queue_name,
      run_at => j.run_at,
      max_attempts => v_max_attempts,
      job_key => j.job_key,
      priority => j.priority,
      flags => j.flags,
      job_key_mode => coalesce(j.job_key_mode, 'replace')
    ) AS a;
    IF v_job_id IS NULL THEN
      RETURN NULL;
    END IF;
  ELSIF v_transport = 'sqs' THEN
    IF j.run_at IS NOT NULL OR j.queue_name IS NOT NULL OR j.priority IS NOT NULL OR j.flags IS NOT NULL
       OR j.job_key_mode IS NOT NULL OR j.history IS FALSE THEN
      RAISE EXCEPTION 'enqueue_job: the sqs transport takes no run_at, queue_name, priority, flags or job_key_mode, and keeps history'
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_job_id := nextval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'));
    INSERT INTO sqs_outbox (job_id, task, order_id, payload)
      VALUES (v_job_id, j.task, j.order_id, j.payload::jsonb || jsonb_build_object('jobId', v_job_id::text));
  ELSE
    RAISE EXCEPTION 'enqueue_job: unknown transport %', v_transport USING ERRCODE = 'invalid_parameter_value';
  END IF;

  IF coalesce(j.history, true) THEN
    -- a job key given again replaced the waiting job (same id): its row is queued again with the new payload
    INSERT INTO job_records (job_id, task, order_id, state, attempts, max_attempts, payload)
      VALUES (v_job_id, j.task, j.order_id, CASE WHEN j.run_at > clock_timestamp() THEN 'scheduled' ELSE 'queued' END,
              0, v_max_attempts, j.payload::jsonb)
      ON CONFLICT (job_id) DO UPDATE SET state = 'queued', payload = excluded.payload, updated_at = now(), finished_at = NULL;
    INSERT INTO job_events (order_id, job_id, task, event, detail, actor)
      VALUES (j.order_id, v_job_id, j.task, 'enqueued',
              CASE WHEN v_transport = 'sqs' THEN coalesce(j.detail, j.task) || ' (SQS, through the outbox)' ELSE j.detail END,
              j.actor);
  END IF;
  RETURN v_job_id;
END
$fn$;
