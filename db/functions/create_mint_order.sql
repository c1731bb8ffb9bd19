-- The intake (docs/decisions/016-intake-one-round-trip.md): lib/mint/createMintOrder.ts calls it.
CREATE OR REPLACE FUNCTION public.create_mint_order(
  p_order_id uuid,
  p_user_id uuid,
  p_session_version integer,
  p_allowed_roles text[],
  p_actor text,
  p_to text,
  p_amount numeric,
  p_amount_wei numeric,
  p_vault text,
  p_receipt_ref text,
  p_document_sha256 text,
  p_idempotency_key text,
  p_request_hash text,
  p_bars jsonb,
  p_needs_approval boolean,
  p_accepted jsonb,
  p_task text,
  p_job_key text,
  p_payload jsonb,
  p_max_attempts integer,
  p_detail text,
  p_audit_detail jsonb,
  p_transport text DEFAULT 'postgres'
) RETURNS TABLE (r_outcome text, r_accepted jsonb, r_request_hash text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
DECLARE
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
  -- 0. The session, against the user's row as it is now (lib/auth/verifySession.ts's rules,
  --    in this statement rather than a round trip of its own: decision 016, amended). First,
  --    before any lock or write: an unknown or disabled user, or a session issued with
  --    another session_version (a role change, disable or enable by an admin bumps it), is
  --    not signed in; a role the route does not allow is forbidden. The role is the ROW's,
  --    never the cookie's; nothing below decides by role.
  SELECT u.role::text, u.disabled, u.session_version INTO v_role, v_disabled, v_session_version
    FROM users u WHERE u.id = p_user_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'unknown_user')::text;
  END IF;
  IF v_disabled THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'disabled')::text;
  END IF;
  IF v_session_version IS DISTINCT FROM p_session_version THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'unauthenticated', DETAIL = jsonb_build_object('reason', 'revoked')::text;
  END IF;
  -- coalesce: a null among the roles (or no roles) makes ANY null, which must refuse, not pass
  IF NOT coalesce(v_role = ANY(p_allowed_roles), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'forbidden', DETAIL = jsonb_build_object('role', v_role)::text;
  END IF;

  -- 1. Same user + Idempotency-Key: one holder at a time (a concurrent duplicate waits
  --    here, then reads what the first committed); an existing order is answered again.
  IF p_idempotency_key IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('mint_orders.idempotency:' || p_user_id::text || ':' || p_idempotency_key, 0));
    RETURN QUERY SELECT 'replay'::text, o.accepted_response, o.request_hash FROM mint_orders o
      WHERE o.requested_by = p_user_id AND o.idempotency_key = p_idempotency_key LIMIT 1;
    IF FOUND THEN RETURN; END IF;
  END IF;

  -- 2. The bars (lib/vault's rules, invariant 4): the vault's lock shared (no import half
  --    done), each requested bar (p_bars: [{ i, sk, rk, year, grossOz, fineness, fineOz }],
  --    keys normalised, given values or null) on the vault's latest list, agreeing with it.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('vault_bars:' || p_vault, 0));
  SELECT l.id INTO v_latest FROM bar_lists l WHERE l.vault = p_vault ORDER BY l.as_of DESC, l.imported_at DESC LIMIT 1;
  SELECT coalesce(array_agg(q.i ORDER BY q.i) FILTER (WHERE NOT q.listed), '{}'),
         coalesce(jsonb_agg(q.mm ORDER BY q.i) FILTER (WHERE q.listed AND q.mm IS NOT NULL), '[]'),
         coalesce(array_agg(q.id ORDER BY q.i) FILTER (WHERE q.listed), '{}'),
         coalesce(sum(q.fine_oz) FILTER (WHERE q.listed), 0)
    INTO v_not_listed, v_mismatches, v_ids, v_total
    FROM (
      SELECT r.i, b.id, b.fine_oz,
             (b.id IS NOT NULL AND b.vault = p_vault AND b.last_list_id IS NOT NULL AND b.last_list_id = v_latest
               AND b.status NOT IN ('withdrawn', 'missing')) AS listed,
             (SELECT jsonb_agg(jsonb_build_object('i', r.i, 'field', m.field, 'inventory', m.inventory) ORDER BY m.n)
                FROM (VALUES (1, 'year', r.year IS NOT NULL AND r.year <> b.year, b.year::text),
                             (2, 'grossOz', r."grossOz" IS NOT NULL AND r."grossOz" <> b.gross_oz, b.gross_oz::text),
                             (3, 'fineness', r.fineness IS NOT NULL AND r.fineness <> b.fineness, b.fineness::text),
                             (4, 'fineOz', r."fineOz" IS NOT NULL AND r."fineOz" <> b.fine_oz, b.fine_oz::text)
                     ) AS m(n, field, differs, inventory)
               WHERE m.differs) AS mm
        FROM jsonb_to_recordset(p_bars) AS r(i int, sk text, rk text, year int, "grossOz" numeric, fineness numeric, "fineOz" numeric)
        LEFT JOIN vault_bars b ON b.serial_key = r.sk AND b.refiner_key = r.rk
    ) q;
  IF cardinality(v_not_listed) > 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_not_in_vault', DETAIL = to_jsonb(v_not_listed)::text;
  END IF;
  IF jsonb_array_length(v_mismatches) > 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_mismatch', DETAIL = v_mismatches::text;
  END IF;
  IF v_total <> p_amount THEN
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
    FROM public.check_mint_controls(p_to, v_amount_wei, p_order_id, true) c;
  IF v_refusal IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = v_refusal, DETAIL = v_refusal_detail::text;
  END IF;

  -- 4. The writes: the job first when the order needs none (its id goes into the order's
  --    row and answer), then the order, its bars, and its timeline
  v_accepted := p_accepted;
  IF NOT p_needs_approval AND p_transport = 'postgres' THEN
    SELECT j.id INTO v_job_id FROM graphile_worker.add_job(
      p_task, p_payload::json, job_key => p_job_key, max_attempts => p_max_attempts, run_at => NULL::timestamptz) AS j;
    v_accepted := v_accepted || jsonb_build_object('jobId', v_job_id::text);
  END IF;
  INSERT INTO mint_orders (id, to_address, amount_wei, status, vault, receipt_ref, document_sha256,
                           requested_by, idempotency_key, request_hash, accepted_response, job_id)
  VALUES (p_order_id, p_to, p_amount_wei, CASE WHEN p_needs_approval THEN 'awaiting_approval' ELSE 'pending' END::mint_status,
          p_vault, p_receipt_ref, p_document_sha256, p_user_id, p_idempotency_key, p_request_hash, v_accepted, v_job_id);
  WITH u AS (
    UPDATE vault_bars SET status = 'reserved', order_id = p_order_id, updated_at = now()
     WHERE id = ANY(v_ids) AND status = 'available' RETURNING id
  ) SELECT coalesce(array_agg(u.id), '{}') INTO v_reserved FROM u;
  IF cardinality(v_reserved) <> cardinality(v_ids) THEN
    -- cannot happen while the rows are locked; never reserve half an order's bars
    SELECT coalesce(array_agg(x.pos - 1 ORDER BY x.pos), '{}') INTO v_used
      FROM unnest(v_ids) WITH ORDINALITY AS x(id, pos) WHERE NOT (x.id = ANY(v_reserved));
    RAISE EXCEPTION USING ERRCODE = 'MDR01', MESSAGE = 'bar_already_used', DETAIL = to_jsonb(v_used)::text;
  END IF;
  INSERT INTO mint_order_bars (order_id, bar_id, position)
    SELECT p_order_id, x.id, (x.pos - 1)::int FROM unnest(v_ids) WITH ORDINALITY AS x(id, pos);

  IF NOT p_needs_approval AND p_transport = 'sqs' THEN
    -- mint_send carried by SQS (issue 15): its outbox row, history row and 'enqueued' event, with the
    -- mint's trace (issue 17: the payload's traceparent, as the graphile job's payload carries it)
    v_job_id := public.enqueue_mint_send_sqs(p_order_id, p_max_attempts, p_actor, p_detail, p_payload->>'traceparent');
    v_accepted := v_accepted || jsonb_build_object('jobId', v_job_id::text);
    UPDATE mint_orders SET job_id = v_job_id, accepted_response = v_accepted WHERE id = p_order_id;
  ELSIF NOT p_needs_approval AND p_transport <> 'postgres' THEN
    RAISE EXCEPTION 'create_mint_order: unknown transport %', p_transport;
  END IF;

  IF p_needs_approval THEN
    INSERT INTO job_events (order_id, task, event, detail, actor)
      VALUES (p_order_id, p_task, 'approval_requested', p_detail, p_actor);
    INSERT INTO audit_log (actor_id, actor_email, action, target_type, target_id, detail)
      VALUES (p_user_id, p_actor, 'mint.approval_requested', 'order', p_order_id::text, p_audit_detail);
    PERFORM public.on_mint_awaiting_approval(p_order_id);
  ELSIF p_transport = 'postgres' THEN
    INSERT INTO job_records (job_id, task, order_id, state, attempts, max_attempts, payload)
      VALUES (v_job_id, p_task, p_order_id, 'queued', 0, p_max_attempts, p_payload)
      ON CONFLICT (job_id) DO UPDATE SET state = 'queued', payload = excluded.payload, updated_at = now(), finished_at = NULL;
    INSERT INTO job_events (order_id, job_id, task, event, detail, actor)
      VALUES (p_order_id, v_job_id, p_task, 'enqueued', p_detail, p_actor);
  END IF;
  RETURN QUERY SELECT 'created'::text, v_accepted, p_request_hash;
END
$fn$;
