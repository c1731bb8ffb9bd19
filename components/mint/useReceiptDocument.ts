import { useState } from 'react'
import { sha256Hex } from './sha256Hex'

export type UseReceiptDocumentParameters = {
  /** a file was chosen: clear the previous file's error */
  onStart: () => void
  onHashed: (hex: string) => void
  onError: (message: string) => void
}

export type UseReceiptDocumentReturnType = {
  /** true while the chosen file is read and hashed (the form waits for it) */
  hashing: boolean
  /** the file whose hash fills the SHA-256 field; null once the field is typed over */
  documentName: string | null
  hashFile: (file: File) => Promise<void>
  forgetDocument: () => void
}

/**
 * The receipt document, hashed in the browser: the document itself never leaves the
 * user's computer, only its SHA-256 is sent with the vault proof.
 */
export function useReceiptDocument({
  onStart,
  onHashed,
  onError,
}: UseReceiptDocumentParameters): UseReceiptDocumentReturnType {
  const [hashing, setHashing] = useState(false)
  const [documentName, setDocumentName] = useState<string | null>(null)

  async function hashFile(file: File) {
    setHashing(true)
    onStart()
    try {
      const hex = await sha256Hex(file)
      onHashed(hex)
      setDocumentName(file.name)
    } catch (error) {
      setDocumentName(null)
      onError(error instanceof Error ? error.message : 'The document could not be read.')
    } finally {
      setHashing(false)
    }
  }

  return { hashing, documentName, hashFile, forgetDocument: () => setDocumentName(null) }
}
