// What the local KMS endpoint speaks: the AWS KMS JSON 1.1 protocol, for secp256k1
// signing keys only (the one kind mintdesk uses).

export const CONTENT_TYPE = 'application/x-amz-json-1.1'
export const KEY_SPEC = 'ECC_SECG_P256K1'
export const SIGNING_ALGORITHM = 'ECDSA_SHA_256'

/** A request's JSON body, checked to be an object (its fields are read with requestFields.ts). */
export type KmsRequestBody = Record<string, unknown>
