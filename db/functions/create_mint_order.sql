-- The intake in one statement (docs/decisions/031-intake-in-one-statement.md), called by
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
--   order_id uuid; user_id uuid, session_id uuid, session_version integer, allowed_roles text[]
--   (the session to check and the route's roles); actor text (the user's email); to_address text; amount text
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
  v_keys text[] := ARRAY['order_id', 'user_id', 'session_id', 'session_version', 'allowed_roles', 'actor', 'to_address', 'amount',
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
    order_id uuid, user_id uuid, session_id uuid, session_version integer, allowed_roles text[], actor text, to_address text,
    amount numeric, amount_wei numeric, vault text, receipt_ref text, document_sha256 text, idempotency_key text,
    request_hash text, bars jsonb, needs_approval boolean, accepted jsonb, job jsonb, audit_detail jsonb);

  -- 0. The session, against the user's row as it is now (lib/web/auth/verifySession.ts's rules,
  --    in this statement rather than a round trip of its own: decision 016, amended). First,
  --    before any lock or write: an unknown or disabled user, or a session issued with
  --    another session_version (a role change, disable or enable by an admin bumps it), or a
  --    session signed out (its id in revoked_sessions; no id at all counts as signed out) is
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
  IF a.session_id IS NULL OR EXISTS (SELECT 1 FROM revoked_sessions r WHERE r.session_id = a.session_id) THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'signed_out')::text;
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
