-- pg_trgm backs the admin search in error text (a trusted extension since PG 13: RDS allows it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "job_events_event_at_idx" ON "job_events" USING btree ("event","at");--> statement-breakpoint
CREATE INDEX "job_events_error_trgm_idx" ON "job_events" USING gin ("error" gin_trgm_ops) WHERE "job_events"."error" is not null;--> statement-breakpoint
CREATE INDEX "job_records_task_job_idx" ON "job_records" USING btree ("task","job_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "job_records_last_error_trgm_idx" ON "job_records" USING gin ("last_error" gin_trgm_ops) WHERE "job_records"."last_error" is not null;