import { type Address, getAddress, type Hex, recoverTypedDataAddress } from 'viem'
import { type BuildMintIntentParameters, buildMintIntent, buildMintIntentTypedData } from '@/lib/mint/buildMintIntent'
import type { MinterReader } from './MinterReader'

export type JudgeApprovalSignatureParameters = {
  /** the order's intent inputs (readOrderIntent) */
  intent: BuildMintIntentParameters
  /** the approver's EIP-712 signature of it */
  signature: Hex
  minter: MinterReader
}

export type ApprovalSignatureVerdict = {
  /** the key the signature recovers to over this intent; undefined when it recovers to none */
  signer: Address | undefined
  /** whether the chain counts that key as an approver */
  isApprover: boolean
  /** how many approver signatures the chain asks for the intent's amount */
  required: number
}

/**
 * What a signature of an order's MintIntent is worth, by the chain's word: the key it recovers to,
 * whether GoldMinter counts that key as an approver, and GoldMinter.requiredApprovals of the
 * intent's amount (the bars' fine weight, never a row's amount). The two chain reads run together;
 * no database is read, so approveMintOrder judges before it takes the order's lock.
 */
export async function judgeApprovalSignature(p: JudgeApprovalSignatureParameters): Promise<ApprovalSignatureVerdict> {
  const typedData = buildMintIntentTypedData(p.minter.domain, p.intent)
  const required = p.minter.requiredApprovals(buildMintIntent(p.intent).amount)
  required.catch(() => {})
  const recovered = await recoverTypedDataAddress({ ...typedData, signature: p.signature }).catch(() => undefined)
  const signer = recovered === undefined ? undefined : getAddress(recovered)
  const [isApprover, count] = await Promise.all([signer === undefined ? false : p.minter.isApprover(signer), required])
  return { signer, isApprover, required: count }
}

/** Whether two reads of an order's intent inputs are the same intent (recipient, deadline, bars in order). */
export function isSameIntent(a: BuildMintIntentParameters, b: BuildMintIntentParameters): boolean {
  return (
    a.orderId === b.orderId &&
    a.to.toLowerCase() === b.to.toLowerCase() &&
    a.deadline.getTime() === b.deadline.getTime() &&
    a.bars.length === b.bars.length &&
    a.bars.every((bar, i) => {
      const other = b.bars[i]
      return (
        other !== undefined &&
        bar.serial === other.serial &&
        bar.refiner === other.refiner &&
        bar.fineMilliOz === other.fineMilliOz
      )
    })
  )
}
