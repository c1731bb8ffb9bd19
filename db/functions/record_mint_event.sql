-- The outbox of order events (docs/decisions/033-notifications.md): in the transaction that changes the order, the
-- event row, only while the order is in one of p_from (locked FOR UPDATE). Returns the event's
-- id, or null when the order was not in p_from (nothing written). The dispatch job is woken at
-- commit by the trigger notification_events_wake_dispatch (public.wake_notify_dispatch).
--   select public.record_mint_event('mint.confirmed', order_id, 'confirmed', array['submitted'], null)
create or replace function public.record_mint_event(p_type text, p_order_id uuid, p_status text, p_from text[], p_data jsonb)
returns uuid
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  v_id uuid;
begin
  insert into notification_events (type, order_id, payload)
  select p_type, o.id,
    jsonb_build_object(
      'orderId', o.id,
      'status', coalesce(p_status, o.status::text),
      'to', o.to_address,
      'amountWei', o.amount_wei::text,
      'txHash', o.tx_hash
    ) || coalesce(p_data, '{}'::jsonb)
  from (
    select m.id, m.status, m.to_address, m.amount_wei, m.tx_hash from mint_orders m
    where m.id = p_order_id and (p_from is null or m.status::text = any(p_from))
    for update
  ) o
  returning id into v_id;
  return v_id;
end
$$;
