-- BEFORE UPDATE OF vault on mint_orders (trigger mint_orders_vault_fixed): an order's vault is
-- fixed once the order is written; any change of it is refused with check_violation, whoever asks.
CREATE OR REPLACE FUNCTION public.mint_orders_vault_fixed() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION 'the vault of mint order % cannot change (% to %)', OLD.id, OLD.vault, NEW.vault
    USING ERRCODE = 'check_violation';
END;
$$;
