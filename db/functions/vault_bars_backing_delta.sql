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
