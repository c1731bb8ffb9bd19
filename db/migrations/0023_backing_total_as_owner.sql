-- The backing total's triggers and its fold run as the owner (SECURITY DEFINER): the runtime roles only read
-- vault_backing_deltas (db/roles/tableGrants.ts). Current definitions: db/functions/.
-- AFTER INSERT / UPDATE / DELETE on vault_bars, for each statement (triggers
-- vault_bars_backing_on_*; docs/decisions/024-backing-running-total.md): appends the signed change of the backing
-- weight the statement made, if any, to vault_backing_deltas, so their sum is the backing weight in every snapshot.
-- SECURITY DEFINER: it runs as the table's owner, so no runtime role may insert into vault_backing_deltas itself.
CREATE OR REPLACE FUNCTION public.vault_bars_backing_delta() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
AS $$
DECLARE
  added numeric := 0;
  removed numeric := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(sum(n.fine_oz), 0) INTO added FROM new_bars n WHERE n.status = 'backing';
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(sum(o.fine_oz), 0) INTO removed FROM old_bars o WHERE o.status = 'backing';
  END IF;
  IF added <> removed THEN
    INSERT INTO vault_backing_deltas (fine_oz) VALUES (added - removed);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.fold_backing_deltas() FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.vault_bars_backing_delta() FROM PUBLIC;
