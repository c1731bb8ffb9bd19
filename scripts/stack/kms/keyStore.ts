import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { KmsServerStartError } from '../../errors/stack'

export type StoredKey = {
  keyId: string
  arn: string
  /** ISO 8601 */
  createdAt: string
  description: string
  /** secp256k1 secret scalar, 32 bytes hex (no 0x) */
  privateKey: string
}

type KeysFile = { version: 1; keys: StoredKey[] }

export type KeyStore = {
  /** by key id, any case */
  get(keyId: string): StoredKey | undefined
  /** adds the key and writes the file before returning */
  add(key: StoredKey): void
  /** in creation order */
  all(): StoredKey[]
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The endpoint's private keys, kept in one JSON file (mode 0600) so a restart keeps
 * them; every write replaces the file atomically (write a temporary file, rename). A
 * file that cannot be read is refused, never overwritten.
 */
export function openKeyStore({ keysPath }: { keysPath: string }): KeyStore {
  const keys = readKeysFile(keysPath)
  const save = () => {
    const file: KeysFile = { version: 1, keys: [...keys.values()] }
    const tmp = `${keysPath}.${process.pid}.${randomUUID()}.tmp`
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
    chmodSync(tmp, 0o600)
    renameSync(tmp, keysPath)
  }
  return {
    get: (keyId) => keys.get(keyId.toLowerCase()),
    add(key) {
      keys.set(key.keyId, key)
      save()
    },
    all: () => [...keys.values()],
  }
}

function readKeysFile(keysPath: string): Map<string, StoredKey> {
  const keys = new Map<string, StoredKey>()
  if (!existsSync(keysPath)) return keys
  let file: KeysFile
  try {
    // our own file, written by save(); its shape is checked below
    file = JSON.parse(readFileSync(keysPath, 'utf8')) as KeysFile
  } catch (err) {
    throw new KmsServerStartError(`${keysPath} is not valid JSON; refusing to overwrite it`, { cause: err })
  }
  if (file.version !== 1 || !Array.isArray(file.keys))
    throw new KmsServerStartError(`${keysPath} has an unknown format`)
  for (const k of file.keys) {
    if (!UUID_RE.test(k.keyId) || !/^[0-9a-f]{64}$/.test(k.privateKey))
      throw new KmsServerStartError(`${keysPath} holds a malformed key`)
    keys.set(k.keyId.toLowerCase(), k)
  }
  chmodSync(keysPath, 0o600)
  return keys
}
