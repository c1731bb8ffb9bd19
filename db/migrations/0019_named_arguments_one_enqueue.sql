-- Named arguments and one enqueue. public.enqueue_job (db/functions/enqueue_job.sql) writes a
-- job, per transport: graphile_worker.add_job, or the SQS outbox row; and its job_records row
-- and 'enqueued' event. lib/jobs/addJobs.ts calls it, and so do the intake and the notification
-- wake-up below: enqueue_mint_send_sqs is dropped. create_mint_order takes one jsonb object of
-- named arguments instead of 23 positional ones; the old signature is dropped (a second overload
-- would stay callable by the web). Calls between our functions name their arguments
-- (on_mint_awaiting_approval's of record_mint_event). Each function as its db/functions file has it.
-- THE enqueue: one job, in the caller's transaction (invariant 1, the outbox: the rows that
-- ask for the job and the job commit together or not at all). Its TypeScript face is
-- lib/jobs/addJobs.ts (addJob, ensureJob, enqueueFollowUp, enqueueMintSend); in SQL the
-- intake (create_mint_order) and the notification wake-up (wake_notify_dispatch) call it.
-- The only function of ours that reaches into graphile_worker (decision 011).
--
-- p_job, named arguments as one jsonb object (a key it does not read is refused, 22023):
--   task          text, required: the task's name (lib/jobs/jobKeys.ts TASK)
--   payload       text, required: the payload's JSON text (kept as written in the job's json;
--                 job_records gets it as jsonb)
--   transport     'postgres' (default): graphile_worker.add_job; 'sqs': an sqs_outbox row that
--                 the worker's relay sends (decision 021), its job id drawn from graphile-worker's
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.enqueue_job(jsonb) FROM PUBLIC;
--> statement-breakpoint
DROP FUNCTION public.create_mint_order(uuid, uuid, integer, text[], text, text, numeric, numeric, text, text, text, text, text, jsonb, boolean, jsonb, text, text, jsonb, integer, text, jsonb, text);
--> statement-breakpoint
-- The intake in one statement (docs/decisions/016-intake-one-round-trip.md), called by
-- lib/web/mint/createMintOrder.ts (and the bench's raw-SQL baseline) with the object that
-- lib/web/mint/createMintOrderArguments.ts builds. In order, each refusal RAISEd with SQLSTATE
-- MDR01 (the message its code, the detail its JSON: lib/web/mint/intakeRefusal.ts), so a refused
-- request writes nothing: 0. the session against the user's row; 1. the Idempotency-Key
-- (an existing order is answered again: 'replay'); 2. the bars against the vault's latest
-- list, locked in id order; 3. the mint controls (public.check_mint_controls); 4. the
-- writes: the job (public.enqueue_job) unless the order awaits approval, the order with its
-- job id and 202 answer, its bars reserved and linked, and its timeline.
--
-- p_intake, named arguments as one jsonb object, every key present (a missing or unknown
-- key is refused, 22023; a value may be null where it says so):
--   order_id uuid; user_id uuid, session_version integer, allowed_roles text[] (the session to
--   check and the route's roles); actor text (the user's email); to_address text; amount text
--   (fine oz, 3 decimals) and amount_wei text; vault, receipt_ref, document_sha256 text;
--   idempotency_key text (or null); request_hash text; bars: [{ i, sk, rk, year, grossOz,
--   fineness, fineOz }] (keys normalised, given values or null); needs_approval boolean;
--   accepted: the 202 answer (its jobId added here); job: the mint_send job as
--   public.enqueue_job takes it (its task and detail also name the 'approval_requested'
--   event of an order that awaits approval); audit_detail: the approval request's audit detail.
-- Returns one row: r_outcome 'created' or 'replay', r_accepted the answer, r_request_hash
-- the stored request's hash (the caller compares it on a replay).
CREATE OR REPLACE FUNCTION public.create_mint_order(p_intake jsonb)
RETURNS TABLE (r_outcome text, r_accepted jsonb, r_request_hash text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
DECLARE
  a record;
  v_keys text[] := ARRAY['order_id', 'user_id', 'session_version', 'allowed_roles', 'actor', 'to_address', 'amount',
                         'amount_wei', 'vault', 'receipt_ref', 'document_sha256', 'idempotency_key', 'request_hash',
                         'bars', 'needs_approval', 'accepted', 'job', 'audit_detail'];
  v_wrong text[];
  v_role text;
  v_disabled boolean;
  v_session_version integer;
  v_latest uuid;
  v_not_listed int[];
  v_mismatches jsonb;
  v_ids uuid[];
  v_total numeric;
  v_free uuid[];
  v_used int[];
  v_reserved uuid[];
  v_amount_wei numeric;
  v_refusal text;
  v_refusal_detail jsonb;
  v_job_id bigint;
  v_accepted jsonb;
BEGIN
  -- the arguments: every key, and no other (checked as one plain expression; the lists are
  -- made only to name what is wrong)
  IF NOT (p_intake ?& v_keys AND (p_intake - v_keys) = '{}'::jsonb) THEN
    SELECT array_agg(k ORDER BY k) INTO v_wrong FROM unnest(v_keys) AS k WHERE NOT p_intake ? k;
    IF v_wrong IS NOT NULL THEN
      RAISE EXCEPTION 'create_mint_order: missing keys %', v_wrong USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT array_agg(k ORDER BY k) INTO v_wrong FROM jsonb_object_keys(p_intake) AS k WHERE k <> ALL (v_keys);
    RAISE EXCEPTION 'create_mint_order: unknown keys %', v_wrong USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO a FROM jsonb_to_record(p_intake) AS x(
    order_id uuid, user_id uuid, session_version integer, allowed_roles text[], actor text, to_address text,
    amount numeric, amount_wei numeric, vault text, receipt_ref text, document_sha256 text, idempotency_key text,
    request_hash text, bars jsonb, needs_approval boolean, accepted jsonb, job jsonb, audit_detail jsonb);

  -- 0. The session, against the user's row as it is now (lib/web/auth/verifySession.ts's rules,
  --    in this statement rather than a round trip of its own: decision 016, amended). First,
  --    before any lock or write: an unknown or disabled user, or a session issued with
  --    another session_version (a role change, disable or enable by an admin bumps it), is
  --    not signed in; a role the route does not allow is forbidden. The role is the ROW's,
  --    never the cookie's; nothing below decides by role.
  SELECT u.role::text, u.disabled, u.session_version INTO v_role, v_disabled, v_session_version
    FROM users u WHERE u.id = a.user_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'unknown_user')::text;
  END IF;
  IF v_disabled THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'disabled')::text;
  END IF;
  IF v_session_version IS DISTINCT FROM a.session_version THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'revoked')::text;
  END IF;
  -- coalesce: a null among the roles (or no roles) makes ANY null, which must refuse, not pass
  IF NOT coalesce(v_role = ANY(a.allowed_roles), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'forbidden', DETAIL = jsonb_build_object('role', v_role)::text;
  END IF;

  -- 1. Same user + Idempotency-Key: one holder at a time (a concurrent duplicate waits
  --    here, then reads what the first committed); an existing order is answered again.
  IF a.idempotency_key IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('mint_orders.idempotency:' || a.user_id::text || ':' || a.idempotency_key, 0));
    RETURN QUERY SELECT 'replay'::text, o.accepted_response, o.request_hash FROM mint_orders o
      WHERE o.requested_by = a.user_id AND o.idempotency_key = a.idempotency_key LIMIT 1;
    IF FOUND THEN RETURN; END IF;
  END IF;

  -- 2. The bars (lib/vault's rules, invariant 4): the vault's lock shared (no import half
  --    done), each requested bar (a.bars: [{ i, sk, rk, year, grossOz, fineness, fineOz }],
  --    keys normalised, given values or null) on the vault's latest list, agreeing with it.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('vault_bars:' || a.vault, 0));
  SELECT l.id INTO v_latest FROM bar_lists l WHERE l.vault = a.vault ORDER BY l.as_of DESC, l.imported_at DESC LIMIT 1;
  SELECT coalesce(array_agg(q.i ORDER BY q.i) FILTER (WHERE NOT q.listed), '{}'),
         coalesce(jsonb_agg(q.mm ORDER BY q.i) FILTER (WHERE q.listed AND q.mm IS NOT NULL), '[]'),
         coalesce(array_agg(q.id ORDER BY q.i) FILTER (WHERE q.listed), '{}'),
         coalesce(sum(q.fine_oz) FILTER (WHERE q.listed), 0)
    INTO v_not_listed, v_mismatches, v_ids, v_total
    FROM (
      SELECT r.i, b.id, b.fine_oz,
             (b.id IS NOT NULL AND b.vault = a.vault AND b.last_list_id IS NOT NULL AND b.last_list_id = v_latest
               AND b.status NOT IN ('withdrawn', 'missing')) AS listed,
             (SELECT jsonb_agg(jsonb_build_object('i', r.i, 'field', m.field, 'inventory', m.inventory) ORDER BY m.n)
                FROM (VALUES (1, 'year', r.year IS NOT NULL AND r.year <> b.year, b.year::text),
                             (2, 'grossOz', r."grossOz" IS NOT NULL AND r."grossOz" <> b.gross_oz, b.gross_oz::text),
                             (3, 'fineness', r.fineness IS NOT NULL AND r.fineness <> b.fineness, b.fineness::text),
                             (4, 'fineOz', r."fineOz" IS NOT NULL AND r."fineOz" <> b.fine_oz, b.fine_oz::text)
                     ) AS m(n, field, differs, inventory)
               WHERE m.differs) AS mm
        FROM jsonb_to_recordset(a.bars) AS r(i int, sk text, rk text, year int, "grossOz" numeric, fineness numeric, "fineOz" numeric)
        LEFT JOIN vault_bars b ON b.serial_key = r.sk AND b.refiner_key = r.rk
    ) q;
  IF cardinality(v_not_listed) > 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_not_in_vault', DETAIL = to_jsonb(v_not_listed)::text;
  END IF;
  IF jsonb_array_length(v_mismatches) > 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_mismatch', DETAIL = v_mismatches::text;
  END IF;
  IF v_total <> a.amount THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'amount_mismatch', DETAIL = to_jsonb(v_total::text)::text;
  END IF;

  -- row locks in id order (two requests sharing bars cannot deadlock), then the statuses
  -- as they are now: of two requests for one bar exactly one wins
  SELECT coalesce(array_agg(s.id) FILTER (WHERE s.status = 'available'), '{}') INTO v_free
    FROM (SELECT b.id, b.status FROM vault_bars b WHERE b.id = ANY(v_ids) ORDER BY b.id FOR UPDATE) s;
  SELECT coalesce(array_agg(x.pos - 1 ORDER BY x.pos), '{}') INTO v_used
    FROM unnest(v_ids) WITH ORDINALITY AS x(id, pos) WHERE NOT (x.id = ANY(v_free));
  IF cardinality(v_used) > 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_already_used', DETAIL = to_jsonb(v_used)::text;
  END IF;

  -- 3. The mint controls (invariant 6), on the bars' weight: public.check_mint_controls,
  --    their one home (the allowlist, the per-order limit, the rolling 24 h cap under its
  --    lock, held until commit, so the next intake's sum, a new statement and a new
  --    snapshot, sees this order)
  v_amount_wei := trunc(v_total * 1000000000000000000);
  SELECT c.r_refusal, c.r_detail INTO v_refusal, v_refusal_detail
    FROM public.check_mint_controls(p_to => a.to_address, p_amount_wei => v_amount_wei, p_exclude_order_id => a.order_id, p_lock => true) c;
  IF v_refusal IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = v_refusal, DETAIL = v_refusal_detail::text;
  END IF;

  -- 4. The writes: the job first when the order needs none (its id goes into the order's
  --    row and answer: public.enqueue_job, per the job's transport), then the order, its
  --    bars, and, for an order that awaits approval, its timeline, audit and event
  v_accepted := a.accepted;
  IF NOT a.needs_approval THEN
    v_job_id := public.enqueue_job(a.job);
    IF v_job_id IS NULL THEN
      RAISE EXCEPTION 'create_mint_order: the job of order % was not added', a.order_id;
    END IF;
    v_accepted := v_accepted || jsonb_build_object('jobId', v_job_id::text);
  END IF;
  INSERT INTO mint_orders (id, to_address, amount_wei, status, vault, receipt_ref, document_sha256,
                           requested_by, idempotency_key, request_hash, accepted_response, job_id)
  VALUES (a.order_id, a.to_address, a.amount_wei, CASE WHEN a.needs_approval THEN 'awaiting_approval' ELSE 'pending' END::mint_status,
          a.vault, a.receipt_ref, a.document_sha256, a.user_id, a.idempotency_key, a.request_hash, v_accepted, v_job_id);
  WITH u AS (
    UPDATE vault_bars SET status = 'reserved', order_id = a.order_id, updated_at = now()
     WHERE id = ANY(v_ids) AND status = 'available' RETURNING id
  ) SELECT coalesce(array_agg(u.id), '{}') INTO v_reserved FROM u;
  IF cardinality(v_reserved) <> cardinality(v_ids) THEN
    -- cannot happen while the rows are locked; never reserve half an order's bars
    SELECT coalesce(array_agg(x.pos - 1 ORDER BY x.pos), '{}') INTO v_used
      FROM unnest(v_ids) WITH ORDINALITY AS x(id, pos) WHERE NOT (x.id = ANY(v_reserved));
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_already_used', DETAIL = to_jsonb(v_used)::text;
  END IF;
  INSERT INTO mint_order_bars (order_id, bar_id, position)
    SELECT a.order_id, x.id, (x.pos - 1)::int FROM unnest(v_ids) WITH ORDINALITY AS x(id, pos);

  IF a.needs_approval THEN
    INSERT INTO job_events (order_id, task, event, detail, actor)
      VALUES (a.order_id, a.job->>'task', 'approval_requested', a.job->>'detail', a.actor);
    INSERT INTO audit_log (actor_id, actor_email, action, target_type, target_id, detail)
      VALUES (a.user_id, a.actor, 'mint.approval_requested', 'order', a.order_id::text, a.audit_detail);
    PERFORM public.on_mint_awaiting_approval(a.order_id);
  END IF;
  RETURN QUERY SELECT 'created'::text, v_accepted, a.request_hash;
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.create_mint_order(jsonb) FROM PUBLIC;
--> statement-breakpoint
-- The intake's hook for an order written as awaiting_approval: its mint.awaiting_approval event
-- (public.record_mint_event), in the intake's statement. Called by create_mint_order.
create or replace function public.on_mint_awaiting_approval(p_order_id uuid)
returns void
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
begin
  perform public.record_mint_event(p_type => 'mint.awaiting_approval', p_order_id => p_order_id, p_status => 'awaiting_approval',
                                   p_from => array['awaiting_approval'], p_data => null);
end
$$;
--> statement-breakpoint
-- The deferred constraint trigger notification_events_wake_dispatch (decision 018): at the commit
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
--> statement-breakpoint
DROP FUNCTION public.enqueue_mint_send_sqs(uuid, integer, text, text, text);
