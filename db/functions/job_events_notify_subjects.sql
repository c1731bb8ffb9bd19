-- AFTER INSERT on job_events, for each statement (trigger job_events_notify_subjects): a notification on the channel
-- mintdesk_subject for each operation the statement added timeline events to, its id the payload. Postgres delivers
-- them at the commit and folds a transaction's equal ones into one. The web's live pages listen
-- (lib/web/live/createSubjectListener.ts).
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
