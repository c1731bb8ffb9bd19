import { CreateKeyCommand } from '@aws-sdk/client-kms'
import type { Address, LocalAccount } from 'viem'
import { ANVIL_DEV_PRIVATE_KEY } from '../../scripts/stack/anvil'
import { ensureToken } from '../../scripts/stack/deployToken'
import { createKmsAccount } from '../../worker/signer/createKmsAccount'
import { createKmsClient } from '../../worker/signer/createKmsClient'

export type CreateBaselineSignersParameters = {
  kmsEndpoint: string
  rpcUrl: string
  chainId: number
  tokenAddress: Address
  minterAddress: Address
  count: number
}

export type CreateBaselineSignersReturnType = { accounts: LocalAccount[]; close: () => void }

/**
 * KMS keys of their own for the chain baselines (the sequential loop and the node's raw
 * limit), funded like the stack's signers and, like them, holding no role: relayers of what
 * the approvers signed (GoldMinter.attestAndMint checks the rest). Not the worker's
 * keys: transactions sent behind mintdesk's back would (rightly) trip its nonce
 * bookkeeping (docs/decisions/026-nonces-in-postgres.md).
 */
export async function createBaselineSigners(
  p: CreateBaselineSignersParameters,
): Promise<CreateBaselineSignersReturnType> {
  const kms = createKmsClient({ region: 'us-east-1', endpoint: p.kmsEndpoint })
  const accounts: LocalAccount[] = []
  for (let i = 0; i < p.count; i++) {
    const made = await kms.send(
      new CreateKeyCommand({
        KeySpec: 'ECC_SECG_P256K1',
        KeyUsage: 'SIGN_VERIFY',
        Description: `bench baseline ${i + 1}`,
      }),
    )
    const keyId = made.KeyMetadata?.KeyId
    if (!keyId) throw new Error('CreateKey returned no KeyId')
    accounts.push(await createKmsAccount(kms, { keyId }))
  }
  await ensureToken({
    rpcUrl: p.rpcUrl,
    chainId: p.chainId,
    deployerPrivateKey: ANVIL_DEV_PRIVATE_KEY,
    signerAddresses: accounts.map((a) => a.address),
    tokenAddress: p.tokenAddress,
    minterAddress: p.minterAddress,
  })
  return { accounts, close: () => kms.destroy() }
}
