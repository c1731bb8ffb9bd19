import type { ApiOperation } from './ApiOperation'
import { adminOperations } from './operations/adminOperations'
import { complianceOperations } from './operations/complianceOperations'
import { mintOperations } from './operations/mintOperations'
import { publicOperations } from './operations/publicOperations'
import { redemptionOperations } from './operations/redemptionOperations'
import { signerOperations } from './operations/signerOperations'
import { webhookOperations } from './operations/webhookOperations'

/** Every operation of the API, one per route file's exported method (lib/web/openapi/apiOperations.test.ts). */
export const apiOperations: readonly ApiOperation[] = [
  ...publicOperations,
  ...mintOperations,
  ...adminOperations,
  ...signerOperations,
  ...webhookOperations,
  ...complianceOperations,
  ...redemptionOperations,
]
