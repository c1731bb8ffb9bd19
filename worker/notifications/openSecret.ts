import { createDecipheriv } from 'node:crypto'
import { WebhookSecretError } from '@/lib/errors/notifications'

export type OpenSecretParameters = { key: Buffer; sealed: string; endpointId: string }

/** The signing secret of an endpoint, from its sealed form (sealSecret); a wrong key or row is a WebhookSecretError. */
export function openSecret({ key, sealed, endpointId }: OpenSecretParameters): string {
  const [version, nonce, tag, ciphertext] = sealed.split('.')
  if (version !== 'v1' || !nonce || !tag || ciphertext === undefined)
    throw new WebhookSecretError('the sealed secret is not in the v1 form')
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'))
    decipher.setAAD(Buffer.from(endpointId, 'utf8'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
  } catch (cause) {
    throw new WebhookSecretError(
      'the secret does not open with WEBHOOK_SECRETS_KEY (another key, or another endpoint)',
      { cause },
    )
  }
}
