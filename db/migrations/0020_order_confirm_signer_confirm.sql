-- Two tasks renamed so they cannot be confused (lib/jobs/jobKeys.ts TASK):
--   mint_confirm   -> order_confirm   one order alone (a hand-over of the signer's confirmer, its dead letter)
--   mint_confirmer -> signer_confirm  one per signer, follows every submitted transaction of the signer
-- Nothing queued is stranded: graphile-worker's task row is renamed in place (so a job keeps
-- its task and the metrics page shows no leftover task), and every job key that carries an
-- old name (`mint_confirm:<orderId>`, `mint_confirmer:<signer>`) gets the new one, so the
-- workers' lookups by key (lib/jobs/jobKeys.ts, worker/jobs/orderConfirmJobSql.ts) still
-- find it. Should a worker of the new release already have registered the new name, the
-- jobs move to its task row and the old row goes; a key whose new form is already taken
-- stays as it was (that job still runs under the new task). The history follows: the
-- `task` of job_records and job_events (the admin pages filter on it) and the `task`
-- label of the folded counters in metric_series (decision 020), summed into the new label.
-- Jobs that workers of the previous release add under an old name during the deploy's
-- roll still run: the new workers take both names (TASKS_RENAMED in lib/jobs/jobKeys.ts).
DO $$
DECLARE
  r record;
  v_old_id integer;
  v_new_id integer;
BEGIN
  FOR r IN SELECT * FROM (VALUES ('mint_confirm', 'order_confirm'), ('mint_confirmer', 'signer_confirm')) AS v(old_name, new_name) LOOP
    -- db/migrate.ts runs graphile-worker's migration first; a database without its schema has no queue to rename
    IF to_regclass('graphile_worker._private_tasks') IS NOT NULL THEN
      SELECT t.id INTO v_old_id FROM graphile_worker._private_tasks t WHERE t.identifier = r.old_name;
      SELECT t.id INTO v_new_id FROM graphile_worker._private_tasks t WHERE t.identifier = r.new_name;
      IF v_old_id IS NOT NULL AND v_new_id IS NULL THEN
        UPDATE graphile_worker._private_tasks SET identifier = r.new_name WHERE id = v_old_id;
      ELSIF v_old_id IS NOT NULL THEN
        UPDATE graphile_worker._private_jobs SET task_id = v_new_id WHERE task_id = v_old_id;
        DELETE FROM graphile_worker._private_tasks WHERE id = v_old_id;
      END IF;

      UPDATE graphile_worker._private_jobs j
        SET key = r.new_name || substr(j.key, length(r.old_name) + 1)
        WHERE left(j.key, length(r.old_name) + 1) = r.old_name || ':'
          AND NOT EXISTS (
            SELECT 1 FROM graphile_worker._private_jobs k
            WHERE k.key = r.new_name || substr(j.key, length(r.old_name) + 1)
          );
    END IF;

    UPDATE job_records SET task = r.new_name WHERE task = r.old_name;
    UPDATE job_events SET task = r.new_name WHERE task = r.old_name;

    INSERT INTO metric_series (process, name, labels, value, updated_at)
      SELECT m.process, m.name, replace(m.labels, 'task="' || r.old_name || '"', 'task="' || r.new_name || '"'), m.value, m.updated_at
      FROM metric_series m
      WHERE strpos(m.labels, 'task="' || r.old_name || '"') > 0
      ON CONFLICT (process, name, labels) DO UPDATE SET value = metric_series.value + excluded.value;
    DELETE FROM metric_series WHERE strpos(labels, 'task="' || r.old_name || '"') > 0;
  END LOOP;
END
$$;
