-- Control changes need a second admin (docs/decisions/044): control_changes holds each
-- recipient, limit and role change an admin asks for until another admin confirms or rejects it.
-- The rolling 24 h cap counts an order from when it is approved and signed, not requested
-- (public.recent_mints_wei, with the index on confirmed_at it reads), and the mint controls refuse
-- to pass an order while a limit is unset on a connection that requires them (the production
-- worker's: public.check_mint_controls). Each function as its db/functions file has it.
CREATE TYPE "public"."control_change_status" AS ENUM('awaiting_second_admin', 'applied', 'rejected');--> statement-breakpoint
CREATE TABLE "control_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb NOT NULL,
	"status" "control_change_status" DEFAULT 'awaiting_second_admin' NOT NULL,
	"author_id" uuid,
	"author_email" text NOT NULL,
	"decided_by_id" uuid,
	"decided_by_email" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "control_changes_kind_format" CHECK ("control_changes"."kind" ~ '^[a-z]+(\.[a-z_]+)+$'),
	CONSTRAINT "control_changes_decided" CHECK (("control_changes"."status" = 'awaiting_second_admin') = ("control_changes"."decided_by_email" is null and "control_changes"."decided_at" is null)),
	CONSTRAINT "control_changes_not_self_decided" CHECK ("control_changes"."decided_by_email" is null or "control_changes"."decided_by_email" <> "control_changes"."author_email"),
	CONSTRAINT "control_changes_rejected_reason" CHECK (("control_changes"."status" = 'rejected') = ("control_changes"."reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "control_changes" ADD CONSTRAINT "control_changes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "control_changes" ADD CONSTRAINT "control_changes_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "control_changes_status_created_idx" ON "control_changes" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "control_changes_created_idx" ON "control_changes" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mint_orders_confirmed_at_idx" ON "mint_orders" USING btree ("confirmed_at");
--> statement-breakpoint
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
--> statement-breakpoint
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
