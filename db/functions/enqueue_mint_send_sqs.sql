-- The SQS transport's enqueue of mint_send (decision 021).
CREATE OR REPLACE FUNCTION public.enqueue_mint_send_sqs(p_order_id uuid, p_max_attempts int, p_actor text, p_detail text, p_traceparent text DEFAULT NULL)
returns bigint
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  v_job_id bigint := nextval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'));
begin
  insert into sqs_outbox (job_id, task, order_id, payload)
    values (v_job_id, 'mint_send', p_order_id,
            jsonb_strip_nulls(jsonb_build_object('orderId', p_order_id, 'jobId', v_job_id::text, 'traceparent', p_traceparent)));
  insert into job_records (job_id, task, order_id, state, attempts, max_attempts, payload)
    values (v_job_id, 'mint_send', p_order_id, 'queued', 0, p_max_attempts,
            jsonb_strip_nulls(jsonb_build_object('orderId', p_order_id, 'traceparent', p_traceparent)));
  insert into job_events (order_id, job_id, task, event, actor, detail)
    values (p_order_id, v_job_id, 'mint_send', 'enqueued', p_actor, coalesce(p_detail, 'mint_send') || ' (SQS, through the outbox)');
  return v_job_id;
end
$$;
