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
