/** SHA-256 of a file, as 64 lowercase hex characters, computed in the browser (Web Crypto). */
export async function sha256Hex(file: Blob): Promise<string> {
  if (!globalThis.crypto?.subtle) {
    throw new Error('This browser cannot hash files here (Web Crypto needs HTTPS); paste the SHA-256 instead.')
  }
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer())
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}
