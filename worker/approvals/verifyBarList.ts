import { type Address, getAddress, type Hex, hashTypedData, isAddress, isAddressEqual, zeroAddress } from 'viem'
import type { DbOrTx } from '@/db/client'
import { barListAsOf } from '@/lib/chain/barListAsOf'
import { collectBarLeaves, rootOfSortedLeaves, vaultId } from '@/lib/chain/bars'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { type BarList, barListTypedData } from '@/lib/chain/typedData'
import { BarListUnverifiedError } from '@/lib/errors/approvals'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { listBarListBars } from '../db/listBarListBars'
import type { StoredBarList } from '../db/readLatestBarList'
import type { WorkerContext } from '../runtime/context'
import { isEoaSignature } from './isEoaSignature'

/**
 * A bar list the worker verified itself: the typed data the custodian signed, and its bars'
 * leaves ascending, 32 bytes each (hasSortedLeaf; 3.2 MB for 100,000 bars).
 */
export type VerifiedBarList = {
  listId: string
  barList: BarList
  custodian: Address
  signature: Hex
  leaves: Uint8Array
}

/** Lists already verified, by list id (a list never changes; its root was checked against its bars). */
const verified = new Map<string, VerifiedBarList>()
/** the leaves the cache keeps at most (the worker's heap is small): two lists of 100,000 bars; the newest always */
const MAX_CACHED_LEAF_BYTES = 8 * 1024 * 1024
/** Lists being verified now, by list id: a second caller waits for the first's result */
const verifying = new Map<string, Promise<VerifiedBarList>>()

/**
 * Verifies a vault's bar list before any mint it backs is relayed: it carries the
 * custodian's EIP-712 signature of (vault, asOf, root, total), that signature recovers to
 * the custodian it names, that key is a registered custodian on chain and the vault is
 * bound to it or to nobody yet, and the bars the list put on the inventory give exactly
 * the signed root and total. A refusal is a BarListUnverifiedError (permanent). The root
 * check runs once per list (cached); the chain's custodian checks run every time.
 */
export async function verifyBarList(
  ctx: Pick<WorkerContext, 'chain' | 'chainId' | 'minterAddress'>,
  db: DbOrTx,
  p: { vault: string; list: StoredBarList | undefined },
): Promise<VerifiedBarList> {
  const { list, vault } = p
  if (!list) throw new BarListUnverifiedError(`vault ${vault} has no bar list`)
  const name = `the latest bar list of ${vault} (${list.asOf.toISOString()})`
  if (!list.custodianSignature || !list.custodianAddress || !list.barsRoot || list.totalFineWei === null)
    throw new BarListUnverifiedError(`${name} carries no custodian signature: it backs no new mint`)
  if (!isAddress(list.custodianAddress, { strict: false }))
    throw new BarListUnverifiedError(`${name} names custodian ${list.custodianAddress}, which is not an address`)
  const custodian = getAddress(list.custodianAddress)

  let result = verified.get(list.id)
  if (!result) {
    // one verification per list at a time: the orders of a send batch share its leaves
    let pending = verifying.get(list.id)
    if (!pending) {
      const barList: BarList = {
        vault: vaultId(vault),
        asOf: barListAsOf(list.asOf),
        barsRoot: list.barsRoot as Hex,
        totalFineWei: list.totalFineWei,
      }
      const signature = list.custodianSignature as Hex
      pending = verifyListBars(ctx, db, { vault, listId: list.id, name, custodian, barList, signature }).finally(() =>
        verifying.delete(list.id),
      )
      verifying.set(list.id, pending)
    }
    result = await pending
  }

  const minter = { address: ctx.minterAddress, abi: goldMinterAbi } as const
  const [isCustodian, bound] = await Promise.all([
    ctx.chain.readContract({ ...minter, functionName: 'isCustodian', args: [custodian] }),
    ctx.chain.readContract({ ...minter, functionName: 'vaultReserve', args: [result.barList.vault] }),
  ])
  if (!isCustodian) throw new BarListUnverifiedError(`${name} is signed by ${custodian}, no custodian on chain`)
  if (bound.custodian !== zeroAddress && !isAddressEqual(bound.custodian, custodian))
    throw new BarListUnverifiedError(`${name} is signed by ${custodian}, but ${vault} is bound to ${bound.custodian}`)
  return result
}

/** The list's signature over its BarList, then its bars' root and total, read in pages; cached by list id. */
async function verifyListBars(
  ctx: Pick<WorkerContext, 'chain' | 'chainId' | 'minterAddress'>,
  db: DbOrTx,
  p: { vault: string; listId: string; name: string; custodian: Address; barList: BarList; signature: Hex },
): Promise<VerifiedBarList> {
  const { vault, listId, name, custodian, barList, signature } = p
  const domain = { chainId: ctx.chainId, verifyingContract: ctx.minterAddress }
  const typedData = barListTypedData(domain, barList)
  if (!(await isEoaSignature({ digest: hashTypedData(typedData), signature, signer: custodian }))) {
    const valid = await ctx.chain.verifyTypedData({ ...typedData, address: custodian, signature }).catch(() => false)
    if (!valid) throw new BarListUnverifiedError(`${name} is not signed by the custodian it names, ${custodian}`)
  }
  const collector = collectBarLeaves()
  let total = 0n
  let count = 0
  for await (const page of listBarListBars(db, { vault, listId })) {
    for (const b of page) {
      const fineWei = b.fineMilliOz * WEI_PER_MILLI_OZ
      collector.add({ serial: b.serial, refiner: b.refiner, fineWei })
      total += fineWei
      count++
    }
  }
  const leaves = collector.sorted()
  if (rootOfSortedLeaves(leaves).toLowerCase() !== barList.barsRoot.toLowerCase() || total !== barList.totalFineWei)
    throw new BarListUnverifiedError(`the ${count} bars of ${name} do not give the root and total it signed`)
  const result = { listId, barList, custodian, signature, leaves }
  let cached = leaves.length
  for (const v of verified.values()) cached += v.leaves.length
  for (const [id, v] of verified) {
    if (cached <= MAX_CACHED_LEAF_BYTES) break
    verified.delete(id)
    cached -= v.leaves.length
  }
  verified.set(listId, result)
  return result
}
