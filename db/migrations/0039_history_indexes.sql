-- The indexes a year of history asks for (docs/decisions/066-a-year-of-history.md): an audit search by its target
-- reads that target's rows newest first; a bar search by serial or refiner finds its substring through trigrams; a
-- vault's bars of one status come in the list's order (vault, status, keys) without a sort, which also serves what
-- vault_bars_vault_status_idx served; an endpoint's delivery counts by status read the index alone.
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","chain_seq" DESC);--> statement-breakpoint
CREATE INDEX "vault_bars_serial_key_trgm_idx" ON "vault_bars" USING gin ("serial_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vault_bars_refiner_key_trgm_idx" ON "vault_bars" USING gin ("refiner_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vault_bars_vault_status_keys_idx" ON "vault_bars" USING btree ("vault","status","serial_key","refiner_key");--> statement-breakpoint
DROP INDEX "vault_bars_vault_status_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_status_idx" ON "webhook_deliveries" USING btree ("endpoint_id","status");
