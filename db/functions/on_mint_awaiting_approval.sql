-- The intake's hook for an order written as awaiting_approval: its mint.awaiting_approval event
-- (public.record_mint_event), in the intake's statement. Called by create_mint_order.
create or replace function public.on_mint_awaiting_approval(p_order_id uuid)
returns void
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
begin
  perform public.record_mint_event(p_type => 'mint.awaiting_approval', p_order_id => p_order_id, p_status => 'awaiting_approval',
                                   p_from => array['awaiting_approval'], p_data => null);
end
$$;
