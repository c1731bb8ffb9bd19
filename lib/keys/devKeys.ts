import { mnemonicToSeedSync } from '@scure/bip39'
import { type HDAccount, HDKey, hdKeyToAccount } from 'viem/accounts'

/**
 * The dev signing keys: the public test mnemonic's (API.md "Keys people hold"), for the
 * local stack and the tests only; production refuses every address of the mnemonic
 * (isDevKeyAddress). Path m/44'/60'/0'/0/i.
 */

/** The public test mnemonic: dev keys only, production refuses them. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** Who holds which index of the mnemonic in the local stack. */
export const DEV_KEY_INDEX = { approver: 10, approver2: 11, custodian: 12, admin: 13, admin2: 14 } as const

export type DevKeyName = keyof typeof DEV_KEY_INDEX

/** How many of the mnemonic's first addresses production refuses (anvil's 10 and ours). */
const REFUSED_INDICES = 20

let root: HDKey | undefined

/** The account (with its private key) of index `i` of the dev mnemonic. */
export function devAccountAt(i: number): HDAccount {
  root ??= HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC))
  return hdKeyToAccount(root, { addressIndex: i })
}

/** The dev key of one of the stack's people. */
export function devKey(name: DevKeyName): HDAccount {
  return devAccountAt(DEV_KEY_INDEX[name])
}

let refused: Set<string> | undefined

/** Whether `address` is one of the dev mnemonic's first addresses (production refuses them). */
export function isDevKeyAddress(address: string): boolean {
  refused ??= new Set(Array.from({ length: REFUSED_INDICES }, (_, i) => devAccountAt(i).address.toLowerCase()))
  return refused.has(address.toLowerCase())
}
