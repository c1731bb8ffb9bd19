import { BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex, keccak256, toHex } from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { bytes32ToOrderId } from '@/lib/mint/orderIdToBytes32'
import { formatDecimal } from '@/lib/money/formatDecimal'

export type DecodeMintErrorReturnType = {
  /**
   * the custom error's name (`OrderAlreadyMinted`, ...), `Error`/`Panic`
   * for the builtins, undefined when the revert carried no known data
   */
  errorName: string | undefined
  args: readonly unknown[]
  /** one sentence for the job timeline and the admin pages */
  reason: string
}

/** GoldMinter's custom errors and GoldToken's (a mint goes through GoldMinter to the token) */
const MINT_ERRORS_ABI = [...goldMinterAbi.filter((x) => x.type === 'error'), ...goldTokenAbi]

const ROLE_NAMES: Record<Hex, string> = {
  '0x0000000000000000000000000000000000000000000000000000000000000000': 'DEFAULT_ADMIN_ROLE',
  [keccak256(toHex('MINTER_ROLE'))]: 'MINTER_ROLE',
  [keccak256(toHex('FREEZER_ROLE'))]: 'FREEZER_ROLE',
  [keccak256(toHex('PAUSER_ROLE'))]: 'PAUSER_ROLE',
}

/**
 * Turns a GoldMinter or GoldToken revert into a readable reason using the contracts' custom errors.
 * Accepts raw revert data (hex, e.g. from replaying a reverted transaction with
 * eth_call) or any viem error from a call, estimateGas or simulateContract. Returns
 * undefined when `error` is not a revert (a timeout, a connection error, ...).
 */
export function decodeMintError(error: unknown): DecodeMintErrorReturnType | undefined {
  if (typeof error === 'string') return error.startsWith('0x') ? fromData(error as Hex) : undefined
  if (!(error instanceof BaseError)) return undefined

  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data) return describe(reverted.data.errorName, reverted.data.args ?? [])
    if (reverted.raw) return fromData(reverted.raw)
    return { errorName: undefined, args: [], reason: reverted.reason ?? 'execution reverted' }
  }

  // a call/estimateGas error: the revert data sits on the innermost error that has it
  const withData = error.walk((e) => typeof e === 'object' && e !== null && 'data' in e)
  const data = revertData(withData)
  if (data) return fromData(data)
  if (/revert/i.test(error.message))
    return { errorName: undefined, args: [], reason: 'execution reverted without a reason' }
  return undefined
}

function revertData(error: unknown): Hex | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined
  const { data } = error
  if (typeof data === 'string' && data.startsWith('0x')) return data as Hex // checked to be 0x-prefixed
  if (
    typeof data === 'object' &&
    data !== null &&
    'data' in data &&
    typeof data.data === 'string' &&
    data.data.startsWith('0x')
  ) {
    return data.data as Hex // the JSON-RPC error's nested data field, checked above
  }
  return undefined
}

function fromData(data: Hex): DecodeMintErrorReturnType {
  if (data === '0x') return { errorName: undefined, args: [], reason: 'execution reverted without a reason' }
  try {
    const { errorName, args } = decodeErrorResult({ abi: MINT_ERRORS_ABI, data })
    return describe(errorName, args ?? [])
  } catch {
    return { errorName: undefined, args: [], reason: `execution reverted with unknown data ${data.slice(0, 10)}` }
  }
}

function describe(errorName: string, args: readonly unknown[]): DecodeMintErrorReturnType {
  const a = (i: number) => String(args[i])
  const reason = (() => {
    switch (errorName) {
      case 'OrderAlreadyMinted':
        return `order ${orderLabel(args[0])} was already minted`
      case 'ZeroAddress':
        return 'the recipient is the zero address'
      case 'TokenAddress':
        return 'the recipient is the token contract itself'
      case 'AccountFrozen':
        return `account ${a(0)} is frozen`
      case 'ZeroAmount':
        return 'the amount is zero'
      case 'IntentExpired':
        return `the intent expired at ${a(0)} (the chain's time is ${a(1)})`
      case 'NotEnoughSignatures':
        return `${a(0)} approver signature(s) given, ${a(1)} needed`
      case 'DuplicateSigner':
        return `approver ${a(0)} signed twice`
      case 'SignersNotAscending':
        return `the approvals are not sorted by signer (at ${a(0)})`
      case 'NotAnApprover':
        return `${a(0)} is not an approver on chain`
      case 'InvalidSignature':
        return `the signature of ${a(0)} is not valid for this intent`
      case 'RateLimitExceeded':
        return `${oz(args[0])} oz is above the rate limit (${oz(args[1])} oz available now)`
      case 'ReserveExceeded':
        return `supply ${oz(args[0])} oz + ${oz(args[1])} oz would exceed the attested reserve ${oz(args[2])} oz`
      case 'InvalidRecipient':
        return `the recipient ${a(0)} is the token or the minter`
      case 'TokenPaused':
        return 'the token is paused'
      case 'PauseUnchanged':
        return args[0] === true ? 'the token is already paused' : 'the token is not paused'
      case 'OperationAlreadyUsed':
        return `operation ${orderLabel(args[0])} was already used`
      case 'StaleAttestation':
        return `the bar list of ${a(1)} is older than the vault's attested one (${a(2)})`
      case 'AttestationFromFuture':
        return `the bar list is dated ${a(0)}, ahead of the chain's time ${a(1)}`
      case 'InvalidCustodianSignature':
        return `the bar list is not signed by custodian ${a(1)}`
      case 'NotACustodian':
        return `${a(0)} is not a registered custodian`
      case 'NotVaultCustodian':
        return `the vault is bound to custodian ${a(1)}, not ${a(2)}`
      case 'AccessControlUnauthorizedAccount':
        return `${a(0)} does not hold ${ROLE_NAMES[a(1) as Hex] ?? a(1)}` // a bytes32 role decodes as Hex
      case 'Error':
        return `reverted: ${a(0)}`
      case 'Panic':
        return `panic ${a(0)}`
      default:
        return `${errorName}(${args.map(String).join(', ')})`
    }
  })()
  return { errorName, args, reason }
}

function oz(value: unknown): string {
  return typeof value === 'bigint' ? formatDecimal(value, { decimals: 18, minFraction: 3 }) : String(value)
}

function orderLabel(value: unknown): string {
  if (typeof value !== 'string') return String(value)
  try {
    return bytes32ToOrderId(value as Hex) // a bytes32 argument decodes as a hex string
  } catch {
    return value
  }
}
