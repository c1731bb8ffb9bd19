import { getAddress } from 'viem'
import { barsHash } from '@/lib/chain/bars'
import { type GoldMinterDomainParameters, type MintIntent, mintIntentTypedData } from '@/lib/chain/typedData'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'
import { orderIdToBytes32 } from './orderIdToBytes32'

/** A bar of an order as its intent hashes it: serial and refiner as listed, fine weight in milli-ounces. */
export type IntentBar = { serial: string; refiner: string; fineMilliOz: bigint }

export type BuildMintIntentParameters = {
  /** the order's uuid */
  orderId: string
  to: string
  /** the order's bars: the amount is their fine weight, barsHash their root (lib/chain/bars.ts) */
  bars: readonly IntentBar[]
  /** the order's intent_deadline */
  deadline: Date
}

/**
 * THE MintIntent of an order, rebuilt from the order and its bars (never from an amount a
 * row states): the web shows and verifies it, the worker verifies it again and relays it,
 * the tests sign it. The amount is the sum of the bars' fine weights; the deadline is the
 * order's, in whole Unix seconds.
 */
export function buildMintIntent(p: BuildMintIntentParameters): MintIntent {
  const hashed = p.bars.map((b) => ({
    serial: b.serial,
    refiner: b.refiner,
    fineWei: b.fineMilliOz * WEI_PER_MILLI_OZ,
  }))
  return {
    orderId: orderIdToBytes32(p.orderId),
    to: getAddress(p.to),
    amount: hashed.reduce((sum, b) => sum + b.fineWei, 0n),
    barsHash: barsHash(hashed),
    deadline: BigInt(Math.floor(p.deadline.getTime() / 1000)),
  }
}

/** The order's intent as EIP-712 typed data for eth_signTypedData_v4 / viem's signTypedData. */
export function buildMintIntentTypedData(domain: GoldMinterDomainParameters, p: BuildMintIntentParameters) {
  return mintIntentTypedData(domain, buildMintIntent(p))
}
