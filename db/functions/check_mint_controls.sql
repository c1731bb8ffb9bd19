-- The mint controls (docs/architecture.md invariant 6), their one home: the recipient allowlist,
-- the per-order limit and, with a cap set, the rolling 24 h cap. Returns ONE row: r_refusal
-- null when the order passes, else 'recipient_not_allowed' or 'over_limit' with r_detail the
-- JSON its error needs; r_used_wei the rolling total of the other orders (0 when no cap is set).
-- A refusal is a row, not a raise: the caller decides. With a cap set and p_lock, the cap's
-- advisory lock ('mint_limits.daily_cap') is taken before the sum and held to commit.
-- With the session setting mintdesk.require_mint_limits 'on' (the production worker's connection
-- sets it: db/client.ts createDb's requireMintLimits), either limit unset RAISEs SQLSTATE MDL01:
-- nothing is signed until both are set, and the job retries.
-- Called by create_mint_order, the approval and the worker's check before signing
-- (lib/controls/checkMintControls.ts, with p_lock false in the worker).
--   select * from public.check_mint_controls('0xabc...', 10^18, null, true)
CREATE OR REPLACE FUNCTION public.check_mint_controls(
  p_to text,
  p_amount_wei numeric,
  p_exclude_order_id uuid DEFAULT NULL,
  p_lock boolean DEFAULT true
) RETURNS TABLE (r_refusal text, r_detail jsonb, r_used_wei numeric)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = public, pg_temp
AS $fn$
DECLARE
  v_max numeric;
  v_cap numeric;
  v_sum numeric;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM allowed_recipients a WHERE a.address = lower(p_to)) THEN
    RETURN QUERY SELECT 'recipient_not_allowed'::text, '{}'::jsonb, 0::numeric;
    RETURN;
  END IF;
  SELECT l.max_order_wei, l.daily_cap_wei INTO v_max, v_cap FROM mint_limits l WHERE l.id = true;
  IF (v_max IS NULL OR v_cap IS NULL) AND current_setting('mintdesk.require_mint_limits', true) = 'on' THEN
    RAISE EXCEPTION USING ERRCODE = 'MDL01', MESSAGE = 'mint_limits_unset',
      DETAIL = 'production signs nothing while the per-order limit or the rolling 24 h cap is unset';
  END IF;
  IF v_max IS NOT NULL AND p_amount_wei > v_max THEN
    RETURN QUERY SELECT 'over_limit'::text,
      jsonb_build_object('limit', 'max_order', 'amountWei', p_amount_wei::text, 'limitWei', v_max::text), 0::numeric;
    RETURN;
  END IF;
  IF v_cap IS NULL THEN
    RETURN QUERY SELECT NULL::text, NULL::jsonb, 0::numeric;
    RETURN;
  END IF;
  IF p_lock THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('mint_limits.daily_cap', 0));
  END IF;
  SELECT public.recent_mints_wei(p_exclude_order_id) INTO v_sum;
  IF v_sum + p_amount_wei > v_cap THEN
    RETURN QUERY SELECT 'over_limit'::text,
      jsonb_build_object('limit', 'daily_cap', 'amountWei', p_amount_wei::text, 'limitWei', v_cap::text, 'usedWei', v_sum::text), v_sum;
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::jsonb, v_sum;
END
$fn$;
