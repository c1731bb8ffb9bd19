import { type Address, type Hex, keccak256, type LocalAccount } from 'viem'
import { WorkerError } from '@/lib/errors/jobs'
import { SignTimeoutError } from '@/worker/errors/chain'

export type SignTxParameters = {
  chainId: number
  nonce: bigint
  to: Address
  data?: Hex
  value?: bigint
  gas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** KMS gets this long; the caller's transaction (holding the nonce) rolls back after it */
  timeoutMs?: number
}

export type SignTxReturnType = { raw: Hex; hash: Hex }

/**
 * Signs an EIP-1559 transaction through the (KMS) account, within a time limit. The KMS
 * account itself proves every signature: it verifies KMS's answer against the key's
 * public key and takes the recovery id from that verification
 * (worker/signer/findRecoveryBit), so a signature that does not belong to the signer
 * never comes back from it.
 */
export async function signTx(account: LocalAccount, p: SignTxParameters): Promise<SignTxReturnType> {
  if (!account.signTransaction) throw new WorkerError(`account ${account.address} cannot sign transactions`)
  const request = {
    type: 'eip1559',
    chainId: p.chainId,
    nonce: Number(p.nonce),
    to: p.to,
    data: p.data,
    value: p.value ?? 0n,
    gas: p.gas,
    maxFeePerGas: p.maxFeePerGas,
    maxPriorityFeePerGas: p.maxPriorityFeePerGas,
  } as const
  const timeoutMs = p.timeoutMs ?? 15_000
  let timer: NodeJS.Timeout | undefined
  const raw = await Promise.race([
    account.signTransaction(request),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SignTimeoutError(timeoutMs)), timeoutMs)
    }),
  ]).finally(() => clearTimeout(timer))
  return { raw, hash: keccak256(raw) }
}
