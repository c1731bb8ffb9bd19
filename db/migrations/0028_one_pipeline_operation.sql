-- One pipeline for every issuer operation (docs/decisions/049): chain_txs and signer_nonces name
-- the kind of operation they carry, generated from which reference column is set (order_id: a
-- mint), null for a gap fill of a nonce nobody held. Existing rows get it as the column is added.
CREATE TYPE "public"."operation_kind" AS ENUM('mint');--> statement-breakpoint
ALTER TABLE "chain_txs" ADD COLUMN "operation" "operation_kind" GENERATED ALWAYS AS (case when order_id is not null then 'mint'::operation_kind end) STORED;--> statement-breakpoint
ALTER TABLE "signer_nonces" ADD COLUMN "operation" "operation_kind" GENERATED ALWAYS AS (case when order_id is not null then 'mint'::operation_kind end) STORED;