import type { Address } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import type { WorkerContext } from '../../runtime/context'

/** Who GoldMinter's admins are and how many must sign a control change: read from the chain, never from a row. */
export type AdminRules = {
  /** lower-case admin addresses */
  admins: ReadonlySet<string>
  threshold: number
}

export async function readAdminRules(ctx: Pick<WorkerContext, 'chain' | 'minterAddress'>): Promise<AdminRules> {
  const minter = { address: ctx.minterAddress, abi: goldMinterAbi } as const
  const [admins, threshold] = await Promise.all([
    ctx.chain.readContract({ ...minter, functionName: 'admins' }),
    ctx.chain.readContract({ ...minter, functionName: 'adminThreshold' }),
  ])
  return { admins: new Set(admins.map((a: Address) => a.toLowerCase())), threshold: Number(threshold) }
}
