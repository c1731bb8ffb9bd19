ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_seq_key" ON "audit_log" USING btree ("chain_seq");--> statement-breakpoint
-- An audit row's hash (docs/decisions/060-audit-hash-chain.md): sha256, in lower-case hex, of its fields each written
-- as `<bytes>:<text>\n` (UTF-8 byte length, a colon, the text, a newline; null as empty), in this order: the previous
-- row's hash, chain_seq, at (UTC, microseconds, 2026-12-04T19:00:00.123456Z), actor_id, actor_email, action,
-- target_type, target_id, detail (its jsonb text). lib/audit/auditRowHash.ts computes the same from an export row.
CREATE OR REPLACE FUNCTION public.audit_row_hash(p_row public.audit_log) RETURNS text
LANGUAGE sql STABLE
AS $$
  SELECT encode(sha256(convert_to(string_agg(octet_length(f.v)::text || ':' || f.v || E'\n', '' ORDER BY f.n), 'UTF8')), 'hex')
  FROM (VALUES
    (1, coalesce(p_row.prev_hash, '')),
    (2, coalesce(p_row.chain_seq::text, '')),
    (3, to_char(p_row.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')),
    (4, coalesce(p_row.actor_id::text, '')),
    (5, p_row.actor_email),
    (6, p_row.action),
    (7, p_row.target_type),
    (8, p_row.target_id),
    (9, coalesce(p_row.detail::text, ''))
  ) AS f(n, v)
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION public.audit_row_hash(public.audit_log) FROM PUBLIC;
--> statement-breakpoint
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
--> statement-breakpoint
-- the rows written before the chain, chained in the order they were written
DO $$
DECLARE
  r public.audit_log;
  seq bigint := 0;
  prev text := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM public.audit_log ORDER BY id LOOP
    seq := seq + 1;
    r.chain_seq := seq;
    r.prev_hash := prev;
    prev := public.audit_row_hash(r);
    UPDATE public.audit_log SET chain_seq = seq, prev_hash = r.prev_hash, row_hash = prev WHERE id = r.id;
  END LOOP;
END
$$;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "chain_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "prev_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "row_hash" SET NOT NULL;--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION public.audit_log_chain();
