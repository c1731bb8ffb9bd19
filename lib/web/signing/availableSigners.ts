/** Who signs for a person in the browser: their wallet, or (dev mode only) the dev signer with their dev key. */
export type KeySignerKind = 'wallet' | 'dev'

/** The signers a page offers: the wallet always; the dev signer only outside production mode. */
export function availableSigners({ production }: { production: boolean }): readonly KeySignerKind[] {
  return production ? ['wallet'] : ['wallet', 'dev']
}
