-- The worker's reserve check (worker/reserves/reconcileBackingTotal.ts): folds the running total of the backing bars
-- (vault_backing_deltas) into ONE row holding a recount of the bars with status backing, and answers what the running
-- total was (running_milli_oz), the recount (recount_milli_oz) and how many rows it folded. One statement, so the rows
-- deleted and the bars counted are one snapshot; serialised by a transaction-scoped advisory lock (two folds at once
-- would each write their recount). SECURITY DEFINER: it runs as the table's owner, so no runtime role writes
-- vault_backing_deltas itself; EXECUTE for the worker only (db/roles/tableGrants.ts).
CREATE OR REPLACE FUNCTION public.fold_backing_deltas()
RETURNS TABLE (running_milli_oz bigint, recount_milli_oz bigint, folded integer)
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('vault_backing_deltas'));
  RETURN QUERY
  WITH gone AS (
    DELETE FROM vault_backing_deltas RETURNING fine_oz
  ), recount AS (
    SELECT coalesce(sum(b.fine_oz), 0) AS fine_oz FROM vault_bars b WHERE b.status = 'backing'
  ), kept AS (
    INSERT INTO vault_backing_deltas (fine_oz) SELECT r.fine_oz FROM recount r WHERE r.fine_oz <> 0
  )
  SELECT
    ((SELECT coalesce(sum(g.fine_oz), 0) FROM gone g) * 1000)::bigint,
    ((SELECT r.fine_oz FROM recount r) * 1000)::bigint,
    (SELECT count(*) FROM gone)::integer;
END
$$;
