-- The searches and totals a year of history still missed (docs/decisions/070-reserves-and-searches-at-a-years-size.md):
-- the jobs search by error text walks, newest first, only the records and the timeline events that carry an error, so a
-- common text stops after a page of jobs; the reserves page sums the free bars by status from an index alone.
CREATE INDEX "job_events_errored_job_idx" ON "job_events" USING btree ("job_id") WHERE "job_events"."error" is not null and "job_events"."job_id" is not null;--> statement-breakpoint
CREATE INDEX "job_records_errored_idx" ON "job_records" USING btree ("job_id") WHERE "job_records"."last_error" is not null;--> statement-breakpoint
CREATE INDEX "vault_bars_status_fine_oz_idx" ON "vault_bars" USING btree ("status","fine_oz");
