import type { TypedDataDefinition } from 'viem'

/** Typed data in its JSON shape (eth_signTypedData_v4's), numbers possibly as decimal strings. */
export type TypedDataJson = {
  domain: Record<string, unknown>
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}

/**
 * JSON typed data as viem's signTypedData and recoverTypedDataAddress take it. viem
 * accepts decimal strings for integers and an `EIP712Domain` entry in `types`, and checks
 * the message against the types when it hashes, so nothing is converted: the signature
 * is over exactly the data given.
 */
export function toViemTypedData(typedData: TypedDataJson): TypedDataDefinition {
  // viem's type is generic over literal type names that JSON cannot carry; its run-time checks still apply
  return typedData as unknown as TypedDataDefinition
}
