-- What the rolling 24 h cap counts, in wei, but p_exclude_order_id: an order counts from when it
-- becomes real, not from when it was requested, so a month of queued requests approved at once
-- cannot pass the cap once per day they waited:
-- - pending and submitted (approved, or needing no approval, and not mined yet): always, whatever
--   their age, until they are mined or fail;
-- - confirmed: mined (confirmed_at) in the last 24 hours;
-- - awaiting approval: requested in the last 24 hours (an older request counts again once
--   approved, as pending).
-- Summed by check_mint_controls; read by the limits page (lib/controls/sumRecentMints.ts).
--   select public.recent_mints_wei(null)
CREATE OR REPLACE FUNCTION public.recent_mints_wei(p_exclude_order_id uuid DEFAULT NULL)
RETURNS numeric
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
  SELECT coalesce(sum(o.amount_wei), 0) FROM mint_orders o
   WHERE (o.status IN ('pending', 'submitted')
          OR (o.status = 'confirmed' AND o.confirmed_at > now() - interval '24 hours')
          -- compared as text: an upgrade that adds 'awaiting_approval' (0006) in the same transaction
          -- must not see the new enum value used in a body checked at creation
          OR (o.status::text = 'awaiting_approval' AND o.created_at > now() - interval '24 hours'))
     AND (p_exclude_order_id IS NULL OR o.id <> p_exclude_order_id)
$fn$;
