import type { Address, PublicClient } from 'viem'
import { WorkerStartError } from '@/lib/errors/jobs'
import type { WorkerLogger } from './logger'

export type CheckDeployBlockParameters = { tokenAddress: Address; deployBlock: bigint; log: WorkerLogger }

/**
 * Refuses a TOKEN_DEPLOY_BLOCK after the token's deployment, whose earlier events the chain followers would never
 * read: the token must have no code in the block before it. One earlier than the deployment only costs reads. A
 * node that keeps no state that old (not an archive node) cannot tell: logged, and the start goes on.
 */
export async function checkDeployBlock(
  chain: PublicClient,
  { tokenAddress, deployBlock, log }: CheckDeployBlockParameters,
): Promise<void> {
  if (deployBlock === 0n) return
  const head = await chain.getBlockNumber({ cacheTime: 0 })
  if (deployBlock > head)
    throw new WorkerStartError(`TOKEN_DEPLOY_BLOCK ${deployBlock} is after the chain's head (block ${head})`)
  let code: string | undefined
  try {
    code = await chain.getCode({ address: tokenAddress, blockNumber: deployBlock - 1n })
  } catch (error) {
    log.warn({ err: error, deployBlock: deployBlock.toString() }, 'TOKEN_DEPLOY_BLOCK not checked: no older state')
    return
  }
  if (code && code !== '0x')
    throw new WorkerStartError(
      `TOKEN_DEPLOY_BLOCK ${deployBlock} is after the token's deployment: ${tokenAddress} has code in block ${deployBlock - 1n}`,
    )
}
