-- The in-flight total from indexes alone (docs/decisions/072-in-flight-from-indexes.md): each
-- reserved bar's order and weight from the reserved bars' index, and its order's status from an index of the orders
-- not confirmed (a few thousand, where the primary key's lookup read a year of orders and their heap).
DROP INDEX "vault_bars_reserved_order_idx";--> statement-breakpoint
CREATE INDEX "mint_orders_unconfirmed_status_idx" ON "mint_orders" USING btree ("id","status") WHERE "mint_orders"."status" <> 'confirmed';--> statement-breakpoint
CREATE INDEX "vault_bars_reserved_order_idx" ON "vault_bars" USING btree ("order_id","fine_oz") WHERE "vault_bars"."status" = 'reserved';
