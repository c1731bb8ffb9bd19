-- Moves one batch of history older than p_before into the archive tables (docs/decisions/066-a-year-of-history.md):
-- the finished jobs of the tasks p_tasks (the housekeeping tasks) that belong to no order, their job_records rows
-- and their timeline events, and the webhook deliveries that ended (delivered, dead, cancelled) with their attempts.
-- Never an order's timeline (an event with an order), never the audit log, never a live job. At most p_batch rows of
-- each kind a call; returns what it moved, { "jobEvents": n, "jobRecords": n, "webhookDeliveries": n,
-- "webhookAttempts": n }: all zeros when nothing is left. SECURITY DEFINER: it runs as the tables' owner, so the
-- worker that calls it needs no DELETE on the append-only tables.
--   select public.archive_history(p_before => now() - interval '12 months', p_tasks => array['nonce_health'],
--     p_batch => 5000)
CREATE OR REPLACE FUNCTION public.archive_history(p_before timestamptz, p_tasks text[], p_batch integer)
RETURNS jsonb
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  v_events integer;
  v_records integer;
  v_deliveries integer;
  v_attempts integer;
BEGIN
  IF p_batch IS NULL OR p_batch < 1 THEN
    RAISE EXCEPTION 'archive_history: p_batch must be a positive number' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- timeline events of finished jobs of those tasks, with no order: the job is not live in graphile-worker, and its
  -- history row, if any, says done or cancelled
  WITH picked AS (
    SELECT e.id FROM job_events e
    WHERE e.task = ANY (p_tasks) AND e.at < p_before AND e.order_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.id = e.job_id)
      AND NOT EXISTS (SELECT 1 FROM job_records r WHERE r.job_id = e.job_id AND r.state NOT IN ('done', 'cancelled'))
    ORDER BY e.task, e.at
    LIMIT p_batch
  ), gone AS (
    DELETE FROM job_events e USING picked p WHERE e.id = p.id RETURNING e.*
  ), moved AS (
    INSERT INTO job_events_archive SELECT * FROM gone RETURNING 1
  )
  SELECT count(*) INTO v_events FROM moved;

  WITH picked AS (
    SELECT r.job_id FROM job_records r
    WHERE r.task = ANY (p_tasks) AND r.order_id IS NULL AND r.state IN ('done', 'cancelled')
      AND r.updated_at < p_before
      AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.id = r.job_id)
    ORDER BY r.job_id
    LIMIT p_batch
  ), gone AS (
    DELETE FROM job_records r USING picked p WHERE r.job_id = p.job_id RETURNING r.*
  ), moved AS (
    INSERT INTO job_records_archive SELECT * FROM gone RETURNING 1
  )
  SELECT count(*) INTO v_records FROM moved;

  WITH picked AS (
    SELECT d.id FROM webhook_deliveries d
    WHERE d.created_at < p_before AND d.updated_at < p_before AND d.status IN ('delivered', 'dead', 'cancelled')
    ORDER BY d.created_at
    LIMIT p_batch
  ), attempts AS (
    DELETE FROM webhook_delivery_attempts a USING picked p WHERE a.delivery_id = p.id RETURNING a.*
  ), moved_attempts AS (
    INSERT INTO webhook_delivery_attempts_archive SELECT * FROM attempts RETURNING 1
  ), gone AS (
    DELETE FROM webhook_deliveries d USING picked p WHERE d.id = p.id RETURNING d.*
  ), moved AS (
    INSERT INTO webhook_deliveries_archive SELECT * FROM gone RETURNING 1
  )
  SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM moved_attempts) INTO v_deliveries, v_attempts;

  RETURN jsonb_build_object('jobEvents', v_events, 'jobRecords', v_records, 'webhookDeliveries', v_deliveries,
    'webhookAttempts', v_attempts);
END
$$;
