-- What the rolling 24 h cap counts, in wei: the orders created in the last 24 hours that are
-- confirmed, in flight or awaiting approval, but p_exclude_order_id. Summed by
-- check_mint_controls; read by the limits page (lib/controls/sumRecentMints.ts).
--   select public.recent_mints_wei(null)
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
