/** One SQS dead letter as the admin page shows it (GET /api/admin/dead-letters/sqs). */
export type ApiSqsDeadLetter = {
  messageId: string
  jobId: string | null
  orderId: string | null
  orderStatus: string | null
  /** receives on the main queue before SQS moved it (the job's attempts) */
  receiveCount: number
  lastError: string | null
  sentAt: string | null
  firstSeenAt: string
  /**
   * set when the worker is to move this message back as it is (one without a job, or one
   * stamped before generations); a job's retry instead sends a new message and drops this one
   */
  retryRequestedAt: string | null
}

export type ApiSqsDeadLetterList = { transport: 'postgres' | 'sqs'; items: ApiSqsDeadLetter[] }

/** The SQS transport's figures, from Postgres: the outbox, the job history and the DLQ as last listed. */
export type ApiSqsQueueMetrics = {
  /** outbox rows the relay has not sent yet */
  unsent: number
  /** sent, waiting to be received (or to be received again after a failure) */
  depth: number
  /** received and being worked now */
  inFlight: number
  /** age of the oldest message sent and not finished, seconds; 0 when none */
  oldestAgeSeconds: number
  /** messages in the dead-letter queue at the worker's last scan */
  deadLetters: number
}
