import { createCipheriv, randomBytes } from 'node:crypto'

export type SealSecretParameters = {
  /** WEBHOOK_SECRETS_KEY, 32 bytes */
  key: Buffer
  secret: string
  /** the endpoint's id: bound as associated data, so a sealed secret copied to another row does not open */
  endpointId: string
}

/**
 * Seals a webhook signing secret for storage (AES-256-GCM, a random 96-bit nonce, the
 * endpoint id as associated data): `v1.<nonce>.<tag>.<ciphertext>`, base64url. A database
 * dump without WEBHOOK_SECRETS_KEY reveals no secret (docs/decisions/033-notifications.md).
 */
export function sealSecret({ key, secret, endpointId }: SealSecretParameters): string {
  const nonce = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(Buffer.from(endpointId, 'utf8'))
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return ['v1', nonce, cipher.getAuthTag(), ciphertext]
    .map((x) => (typeof x === 'string' ? x : x.toString('base64url')))
    .join('.')
}
