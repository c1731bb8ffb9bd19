-- An order's vault is fixed once the order is written. Its bars are reserved in that vault, the
-- reserve check reads that vault's list, and a send batch reads the vault before it takes the
-- order's lock and then locks the vault it read (worker/mint/reserveSendBatch.ts): a vault that
-- changed in between would leave the check reading another vault's lock. No code changes it; the
-- database now refuses any change of it, whoever asks (the owner included).
CREATE OR REPLACE FUNCTION public.mint_orders_vault_fixed() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
BEGIN
  RAISE EXCEPTION 'the vault of mint order % cannot change (% to %)', OLD.id, OLD.vault, NEW.vault
    USING ERRCODE = 'check_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER mint_orders_vault_fixed BEFORE UPDATE OF vault ON public.mint_orders
  FOR EACH ROW WHEN (OLD.vault IS DISTINCT FROM NEW.vault) EXECUTE FUNCTION public.mint_orders_vault_fixed();
