import type { Address } from 'viem'
import { getKmsAddressOrThrow } from '../../scripts/stack/getKmsAddressOrThrow'
import { createKmsClient } from '../../worker/signer/createKmsClient'
import { stackEnv } from './stackEnv'
import type { BenchStack } from './startBenchStack'

/** The addresses of the stack's KMS keys (KMS_KEY_IDS), in key order: the signers the worker holds. */
export async function readWorkerSigners(stack: Pick<BenchStack, 'env'>): Promise<Address[]> {
  const kms = createKmsClient({ region: 'us-east-1', endpoint: stackEnv(stack, 'KMS_ENDPOINT') })
  try {
    return await Promise.all(
      stackEnv(stack, 'KMS_KEY_IDS')
        .split(',')
        .map((keyId) => getKmsAddressOrThrow(kms, { keyId })),
    )
  } finally {
    kms.destroy()
  }
}
