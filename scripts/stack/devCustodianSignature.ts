import { isAddressEqual } from 'viem'
import type { GoldMinterDomainParameters } from '@/lib/chain/typedData'
import { devKey } from '@/lib/keys/devKeys'
import { type BarListToSign, barListMessageTypedData } from '@/lib/web/vault/barListMessage'
import type { CustodianSignature } from '@/lib/web/vault/importBarList'
import { DEV_MINTER_DOMAIN } from './devChain'

/**
 * Dev only: the dev custodian's (index 12 of the dev mnemonic) signature of a list, as its
 * own tool would make it, with the dev rule of who may sign (that key, for every vault): for
 * the stack's seed list, the bench and the tests' imports.
 */
export async function devCustodianSignature(
  list: BarListToSign,
  domain: GoldMinterDomainParameters = DEV_MINTER_DOMAIN,
): Promise<CustodianSignature> {
  const custodian = devKey('custodian')
  return {
    signature: await custodian.signTypedData(barListMessageTypedData(domain, list)),
    domain,
    mayAttest: async ({ address }) => isAddressEqual(address, custodian.address),
  }
}
