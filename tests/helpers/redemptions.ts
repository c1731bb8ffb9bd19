import { createWalletClient, type Hex, http, type LocalAccount } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { devKey } from '@/lib/keys/devKeys'
import type { ApiRedemptionApproval } from '@/lib/web/signing/apiTypes'
import type { ChainFixture } from '@/tests/fixtures/chain'

// TEST ONLY: a holder's deposit to the redemption address, and an approver's signature of a redemption's intent, as
// the holder's wallet and the approver's wallet make them.

/** The holder transfers `amount` (wei) to GoldMinter's redemption address; returns the mined transaction's hash. */
export async function depositToRedemptionAddress(
  chain: ChainFixture,
  p: { holder: LocalAccount; amount: bigint },
): Promise<Hex> {
  const redemptionAddress = await chain.publicClient.readContract({
    address: chain.minterAddress,
    abi: goldMinterAbi,
    functionName: 'redemptionAddress',
  })
  const wallet = createWalletClient({ account: p.holder, chain: chain.chain, transport: http(chain.rpcUrl) })
  const hash = await wallet.writeContract({
    address: chain.tokenAddress,
    abi: goldTokenAbi,
    functionName: 'transfer',
    args: [redemptionAddress, p.amount],
  })
  await chain.publicClient.waitForTransactionReceipt({ hash })
  return hash
}

/** The dev approver's (or `key`'s) EIP-712 signature of the typed data GET .../approval answered. */
export function signRedemptionApproval(
  approval: ApiRedemptionApproval,
  key: LocalAccount = devKey('approver'),
): Promise<Hex> {
  const t = approval.typedData
  const m = t.message
  if (!key.signTypedData) throw new Error('the key cannot sign typed data')
  return key.signTypedData({
    domain: { ...t.domain, chainId: Number(t.domain.chainId), verifyingContract: t.domain.verifyingContract as Hex },
    types: { RedemptionIntent: [...(t.types.RedemptionIntent ?? [])] },
    primaryType: 'RedemptionIntent',
    message: {
      redemptionId: m.redemptionId as Hex,
      from: m.from as Hex,
      amount: BigInt(m.amount),
      barsHash: m.barsHash as Hex,
      deadline: BigInt(m.deadline),
    },
  })
}
