import { z } from 'zod'

/** why signing stops or resumes: 1 to 500 characters, for the other admins and the audit */
const reason = z.string().trim().min(1, 'say why').max(500, 'at most 500 characters')

/** POST /api/admin/signing/stop */
export const stopSigningBodySchema = z.strictObject({ reason })

/** POST /api/admin/signing/resume: a control change a second admin confirms */
export const resumeSigningBodySchema = z.strictObject({ reason })
