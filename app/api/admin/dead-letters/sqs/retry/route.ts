// POST /api/admin/dead-letters/sqs/retry - { messageIds: [...] } or { all: true }: each job a new
// message (its dead letter dropped), orders reopened; audited (admin)
import { route } from '@/lib/web/http/route'
import { requestSqsDeadLetterRetry } from '@/lib/web/queue/requestSqsDeadLetterRetry'
import { sqsRetryBodySchema } from '@/lib/web/queue/schemas'
import { getWebDb } from '@/lib/web/webProcess'

export const dynamic = 'force-dynamic'

export const POST = route({
  roles: ['admin'],
  body: sqsRetryBodySchema,
  handler: ({ body, user }) =>
    requestSqsDeadLetterRetry(getWebDb().db, {
      messageIds: 'all' in body ? 'all' : body.messageIds,
      actor: { id: user.id, email: user.email },
    }),
})
