import { type Address, isAddressEqual, zeroAddress } from 'viem'
import { isDevKeyAddress } from '@/lib/keys/devKeys'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { CustodianSignature } from './importBarList'

/**
 * The web's rule of whose bar-list signature counts, read from GoldMinter: the custodian the
 * vault is bound to on chain, or, for a vault not bound yet, any registered custodian key (it
 * binds at its first attestation). Production refuses the dev mnemonic's keys.
 */
export function chainCustodianSignature(p: {
  signature: string
  minter: MinterReader
  production: boolean
}): CustodianSignature {
  return {
    signature: p.signature,
    domain: p.minter.domain,
    mayAttest: async ({ vault, address }: { vault: string; address: Address }) => {
      if (p.production && isDevKeyAddress(address)) return false
      const bound = await p.minter.vaultCustodian(vault)
      if (!isAddressEqual(bound, zeroAddress)) return isAddressEqual(bound, address)
      return p.minter.isCustodian(address)
    },
  }
}
