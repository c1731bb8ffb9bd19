import { randomBytes } from 'node:crypto'
import { type Address, createWalletClient, type Hex, http, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { controlChangeTypedData, encodeControlChange, sortApprovals } from '@/lib/chain/typedData'
import { devKey } from '@/lib/keys/devKeys'
import type { ChainFixture } from '@/tests/fixtures/chain'

/**
 * TEST ONLY: registers a custodian key on the test chain's GoldMinter, as the issuer's
 * admins would: an addCustodian control change signed by both dev admin keys (13 and 14),
 * relayed by the chain's dev account, which holds no authority of its own.
 */
export async function registerCustodian(chain: ChainFixture, custodian: Address): Promise<void> {
  const { timestamp } = await chain.publicClient.getBlock()
  const message = {
    changeId: toHex(randomBytes(32)) as Hex,
    ...encodeControlChange({ action: 'addCustodian', account: custodian }),
    deadline: timestamp + 3600n,
  }
  const domain = { chainId: chain.chainId, verifyingContract: chain.minterAddress }
  const signatures = sortApprovals(
    await Promise.all(
      (['admin', 'admin2'] as const).map(async (name) => ({
        signer: devKey(name).address,
        signature: await devKey(name).signTypedData(controlChangeTypedData(domain, message)),
      })),
    ),
  )
  const relayer = createWalletClient({
    account: privateKeyToAccount(chain.admin.privateKey),
    chain: chain.chain,
    transport: http(chain.rpcUrl),
  })
  const hash = await relayer.writeContract({
    address: chain.minterAddress,
    abi: goldMinterAbi,
    functionName: 'applyControlChange',
    args: [message, signatures],
  })
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`addCustodian ${custodian} reverted (${hash})`)
}
