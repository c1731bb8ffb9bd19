-- The mint controls in ONE home (issue 11's rule; decision 016, amended 2026-11-30): the
-- recipient allowlist, the per-order limit and the rolling 24 h cap, written once in SQL and
-- called by every gate: the intake (create_mint_order, below), the approval and the worker's
-- check before signing (lib/controls/checkMintControls.ts, a thin call of it).
-- Both functions are SECURITY INVOKER: they read only what the caller's table grants allow.

-- What the rolling 24 h cap counts, in wei: the orders created in the last 24 hours that are
-- confirmed, in flight (pending, submitted) or awaiting approval, but p_exclude_order_id;
-- failed, cancelled and rejected orders made no tokens and hold no bars.
CREATE OR REPLACE FUNCTION public.recent_mints_wei(p_exclude_order_id uuid DEFAULT NULL)
RETURNS numeric
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
  SELECT coalesce(sum(o.amount_wei), 0) FROM mint_orders o
   WHERE o.created_at > now() - interval '24 hours'
     -- compared as text: an upgrade that adds 'awaiting_approval' (0006) in the same transaction
     -- must not see the new enum value used in a body checked at creation
     AND o.status::text IN ('confirmed', 'pending', 'submitted', 'awaiting_approval')
     AND (p_exclude_order_id IS NULL OR o.id <> p_exclude_order_id)
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.recent_mints_wei(uuid) FROM PUBLIC;
--> statement-breakpoint
-- The mint controls (ARCHITECTURE.md invariant 6). Returns ONE row: r_refusal null when the
-- order passes, else the refusal's code ('recipient_not_allowed', 'over_limit') with r_detail
-- the JSON its error needs (the detail create_mint_order raises with SQLSTATE MDR01);
-- r_used_wei the rolling 24 h total of the other orders (0 when no cap is set: not read).
-- A refusal is a row, not a raise: the approval and the worker's check go on in their own
-- transaction (the caller decides). A null limit is unlimited.
-- The cap's lock: with a cap set and p_lock, a transaction-scoped advisory lock
-- ('mint_limits.daily_cap') BEFORE the sum, so two intakes (or an intake and an approval)
-- never both pass the cap; each statement of this volatile function takes a new snapshot
-- under READ COMMITTED, so the sum read after the lock sees what the holder committed. Only
-- the worker, whose order was counted at intake and which signs through KMS in the same
-- transaction, passes p_lock false. No lock without a cap: nothing then needs serialising.
CREATE OR REPLACE FUNCTION public.check_mint_controls(
  p_to text,
  p_amount_wei numeric,
  p_exclude_order_id uuid DEFAULT NULL,
  p_lock boolean DEFAULT true
) RETURNS TABLE (r_refusal text, r_detail jsonb, r_used_wei numeric)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
DECLARE
  v_max numeric;
  v_cap numeric;
  v_sum numeric;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM allowed_recipients a WHERE a.address = lower(p_to)) THEN
    RETURN QUERY SELECT 'recipient_not_allowed'::text, '{}'::jsonb, 0::numeric;
    RETURN;
  END IF;
  SELECT l.max_order_wei, l.daily_cap_wei INTO v_max, v_cap FROM mint_limits l WHERE l.id = true;
  IF v_max IS NOT NULL AND p_amount_wei > v_max THEN
    RETURN QUERY SELECT 'over_limit'::text,
      jsonb_build_object('limit', 'max_order', 'amountWei', p_amount_wei::text, 'limitWei', v_max::text), 0::numeric;
    RETURN;
  END IF;
  IF v_cap IS NULL THEN
    RETURN QUERY SELECT NULL::text, NULL::jsonb, 0::numeric;
    RETURN;
  END IF;
  IF p_lock THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('mint_limits.daily_cap', 0));
  END IF;
  SELECT public.recent_mints_wei(p_exclude_order_id) INTO v_sum;
  IF v_sum + p_amount_wei > v_cap THEN
    RETURN QUERY SELECT 'over_limit'::text,
      jsonb_build_object('limit', 'daily_cap', 'amountWei', p_amount_wei::text, 'limitWei', v_cap::text, 'usedWei', v_sum::text), v_sum;
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::jsonb, v_sum;
END
$fn$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.check_mint_controls(text, numeric, uuid, boolean) FROM PUBLIC;
--> statement-breakpoint
-- The intake (decision 016) as in 0009_intake_one_round_trip.sql, its step 3 now calling
-- public.check_mint_controls; everything else unchanged.
CREATE OR REPLACE FUNCTION public.create_mint_order(
  p_order_id uuid,
  p_user_id uuid,
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
    -- mint_send carried by SQS (issue 15): its outbox row, history row and 'enqueued' event
    v_job_id := public.enqueue_mint_send_sqs(p_order_id, p_max_attempts, p_actor, p_detail);
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.create_mint_order FROM PUBLIC;
