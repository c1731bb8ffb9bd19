-- The audit log's hash chain (docs/decisions/060-audit-hash-chain.md), before each insert, in the row's transaction:
-- one writer at a time until its commit (a transaction-level advisory lock), so each row follows the row committed
-- before it. The row takes the next chain_seq, the latest row's hash as prev_hash (64 zeros for the first), and its
-- own hash (audit_row_hash). Whatever the caller gave for the three is overwritten.
CREATE OR REPLACE FUNCTION public.audit_log_chain() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('mintdesk:audit_log_chain'));
  SELECT a.chain_seq, a.row_hash INTO last_seq, last_hash
    FROM public.audit_log a WHERE a.chain_seq IS NOT NULL ORDER BY a.chain_seq DESC LIMIT 1;
  NEW.chain_seq := coalesce(last_seq, 0) + 1;
  NEW.prev_hash := coalesce(last_hash, repeat('0', 64));
  NEW.row_hash := public.audit_row_hash(NEW);
  RETURN NEW;
END
$$;
