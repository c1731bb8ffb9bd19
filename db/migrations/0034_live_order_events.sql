-- Live order pages (docs/decisions/058-live-order-status.md): a notification per operation whose timeline grew, at the
-- commit, on the channel mintdesk_subject (db/functions/job_events_notify_subjects.sql).
CREATE OR REPLACE FUNCTION public.job_events_notify_subjects() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  subject uuid;
BEGIN
  FOR subject IN SELECT DISTINCT n.order_id FROM new_events n WHERE n.order_id IS NOT NULL LOOP
    PERFORM pg_notify('mintdesk_subject', subject::text);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER job_events_notify_subjects AFTER INSERT ON job_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION public.job_events_notify_subjects();
