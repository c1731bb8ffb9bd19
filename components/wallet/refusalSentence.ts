import { isBaseError } from '@/lib/errors/BaseError'

/**
 * Why a signing step failed, as the end of a sentence ("Could not bind the key: <this>"):
 * a BaseError's message (the API's, or the wallet layer's: no wallet, declined, wrong
 * account), anything else as a generic failure with no internal detail.
 */
export function refusalSentence(error: unknown): string {
  if (!isBaseError(error) || error.message === '') return 'the request failed.'
  return error.message[0].toLowerCase() + error.message.slice(1)
}
