import { existsSync, readFileSync } from 'node:fs'
import { devPasswords } from '../../lib/config/devPasswords'

/**
 * Secrets must never appear in logs or error bodies. This file names the
 * secrets of a running stack and looks for them in text. No imports from the app but the dev
 * passwords' defaults (lib/config/devPasswords.ts, itself without imports): the Playwright specs use it too.
 */

export type Secret = { name: string; value: string }

export type CollectSecretsParameters = {
  /** the stack's environment (stack.env / E2E_STACK_ENV) */
  env: Record<string, string | undefined>
  /** the local KMS endpoint's key file (`<dataDir>/kms/keys.json`): the signing keys' private material */
  kmsKeysFile?: string
}

/** The secrets of a local stack: passwords, session secret, metrics token, database password, KMS private keys. */
export function collectSecrets({ env, kmsKeysFile }: CollectSecretsParameters): Secret[] {
  const out: Secret[] = []
  const add = (name: string, value: string | undefined) => {
    if (value && value.length >= 8) out.push({ name, value })
  }
  for (const [name, value] of Object.entries(devPasswords(env))) add(name, value)
  add('AUTH_SECRET', env.AUTH_SECRET)
  add('METRICS_TOKEN', env.METRICS_TOKEN)
  add('AWS_SECRET_ACCESS_KEY', env.AWS_SECRET_ACCESS_KEY)
  // the owner's and each runtime role's login (db/roles), as they would appear in a leaked connection string
  for (const key of ['DATABASE_URL', 'WEB_DATABASE_URL', 'WORKER_DATABASE_URL', 'DATABASE_ADMIN_URL']) {
    const url = env[key]
    if (!url) continue
    try {
      const password = decodeURIComponent(new URL(url).password)
      if (password && !out.some((x) => x.value === `:${password}@`)) add(`${key} credentials`, `:${password}@`)
    } catch {}
  }
  if (kmsKeysFile && existsSync(kmsKeysFile)) {
    const file = JSON.parse(readFileSync(kmsKeysFile, 'utf8')) as
      | { keys?: { keyId: string; privateKey: string }[] }
      | { keyId: string; privateKey: string }[]
    const keys = Array.isArray(file) ? file : (file.keys ?? [])
    for (const k of keys) {
      add(`KMS private key of ${k.keyId}`, k.privateKey.toLowerCase())
      add(`KMS private key of ${k.keyId} (base64)`, Buffer.from(k.privateKey, 'hex').toString('base64'))
    }
  }
  return out
}

export type SecretFinding = { secret: string; where: string; context: string }

/** Every occurrence of a secret (case-insensitive for hex) in the given texts; the context has the secret masked. */
export function findSecrets(
  secrets: readonly Secret[],
  texts: Iterable<{ where: string; text: string }>,
): SecretFinding[] {
  const findings: SecretFinding[] = []
  for (const { where, text } of texts) {
    const lower = text.toLowerCase()
    for (const s of secrets) {
      const needle = /^[0-9a-f]+$/i.test(s.value) ? s.value.toLowerCase() : s.value
      const hay = needle === s.value ? text : lower
      let i = hay.indexOf(needle)
      while (i >= 0 && findings.length < 100) {
        const context = `${text.slice(Math.max(0, i - 80), i)}[${s.name}]${text.slice(i + needle.length, i + needle.length + 80)}`
        findings.push({ secret: s.name, where, context: context.replace(/\s+/g, ' ') })
        i = hay.indexOf(needle, i + needle.length)
      }
    }
  }
  return findings
}

/** Reads files that exist, for findSecrets. */
export function readTexts(files: readonly string[]): { where: string; text: string }[] {
  return files.filter((f) => existsSync(f)).map((f) => ({ where: f, text: readFileSync(f, 'utf8') }))
}
