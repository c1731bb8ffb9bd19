CREATE TYPE "public"."reserve_status" AS ENUM('covered', 'shortfall');--> statement-breakpoint
CREATE TABLE "reserve_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"block_number" bigint NOT NULL,
	"total_supply_wei" numeric(78, 0) NOT NULL,
	"backing_milli_oz" bigint NOT NULL,
	"in_flight_milli_oz" bigint NOT NULL,
	"available_milli_oz" bigint NOT NULL,
	"missing_milli_oz" bigint NOT NULL,
	"shortfall_wei" numeric(78, 0) NOT NULL,
	"status" "reserve_status" NOT NULL,
	CONSTRAINT "reserve_checks_shortfall_status" CHECK (("reserve_checks"."status" = 'shortfall') = ("reserve_checks"."shortfall_wei" > 0)),
	CONSTRAINT "reserve_checks_non_negative" CHECK ("reserve_checks"."total_supply_wei" >= 0 and "reserve_checks"."shortfall_wei" >= 0 and "reserve_checks"."backing_milli_oz" >= 0 and "reserve_checks"."in_flight_milli_oz" >= 0 and "reserve_checks"."available_milli_oz" >= 0 and "reserve_checks"."missing_milli_oz" >= 0)
);
--> statement-breakpoint
CREATE INDEX "reserve_checks_at_idx" ON "reserve_checks" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);