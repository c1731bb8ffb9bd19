-- The running total of the bars backing confirmed orders (decision 024). The worker's check before
-- each signature read sum(fine_oz) over every 'backing' bar, in every batch's reserve transaction:
-- 7 ms at 13,000 bars on an idle database, and growing with every mint ever confirmed. Instead,
-- every statement that changes vault_bars appends the signed change of the backing weight it made,
-- if any, to vault_backing_deltas (statement-level triggers with transition tables: one row per
-- statement, whatever the number of bars), in the same transaction, so the sum of the deltas is
-- exactly the backing weight in every snapshot. The reserve_check task folds the rows into one and
-- compares the sum with a recount of the bars (lib/reserves/reconcileBackingTotal.ts).
-- SECURITY INVOKER: the web (bar-list imports) and the worker (confirmations, reorgs) append their own
-- rows, as their grants say (db/roles/tableGrants.ts).
CREATE TABLE "vault_backing_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fine_oz" numeric(20, 3) NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.vault_bars_backing_delta() RETURNS trigger
LANGUAGE plpgsql
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
CREATE TRIGGER vault_bars_backing_on_insert AFTER INSERT ON vault_bars
  REFERENCING NEW TABLE AS new_bars FOR EACH STATEMENT EXECUTE FUNCTION public.vault_bars_backing_delta();
--> statement-breakpoint
CREATE TRIGGER vault_bars_backing_on_update AFTER UPDATE ON vault_bars
  REFERENCING OLD TABLE AS old_bars NEW TABLE AS new_bars FOR EACH STATEMENT EXECUTE FUNCTION public.vault_bars_backing_delta();
--> statement-breakpoint
CREATE TRIGGER vault_bars_backing_on_delete AFTER DELETE ON vault_bars
  REFERENCING OLD TABLE AS old_bars FOR EACH STATEMENT EXECUTE FUNCTION public.vault_bars_backing_delta();
--> statement-breakpoint
-- what backs confirmed orders already, as the first delta
INSERT INTO vault_backing_deltas (fine_oz)
  SELECT sum(fine_oz) FROM vault_bars WHERE status = 'backing' HAVING sum(fine_oz) IS NOT NULL;
