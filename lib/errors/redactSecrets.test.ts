import { describe, expect, it } from 'vitest'
import { redactErrorInPlace, redactSecrets } from './redactSecrets'

describe('redactSecrets', () => {
  it.each([
    [
      'HTTP request failed.\n\nURL: http://127.0.0.1:8545/v3/SECRETKEY\nRequest body: {}',
      'HTTP request failed.\n\nURL: http://127.0.0.1:8545/[redacted]\nRequest body: {}',
    ],
    ['https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef', 'https://mainnet.infura.io/[redacted]'],
    ['see https://eth-mainnet.g.alchemy.com/v2/KEY123.', 'see https://eth-mainnet.g.alchemy.com/[redacted]'],
    ['https://rpc.example/?apikey=SECRETKEY', 'https://rpc.example/[redacted]'],
    ['https://rpc.example?apikey=SECRETKEY', 'https://rpc.example/[redacted]'],
    ['wss://node.example:8546/ws/SECRETKEY', 'wss://node.example:8546/[redacted]'],
    ['postgres://mintdesk:SECRETKEY@db.internal:5432/mintdesk', 'postgres://[redacted]@db.internal:5432/[redacted]'],
    ['https://user:SECRETKEY@rpc.example', 'https://[redacted]@rpc.example'],
    // inside a JSON log line: the URL ends at the quote or at an escape
    [
      '{"msg":"x","err":{"message":"URL: http://127.0.0.1:1/v3/SECRETKEY\\nRequest body"}}',
      '{"msg":"x","err":{"message":"URL: http://127.0.0.1:1/[redacted]\\nRequest body"}}',
    ],
    ['{"url":"https://rpc.example/SECRETKEY"}', '{"url":"https://rpc.example/[redacted]"}'],
  ])('%j', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
    expect(redactSecrets(input)).not.toContain('SECRETKEY')
    // idempotent: a stored text redacted twice reads the same
    expect(redactSecrets(expected)).toBe(expected)
  })

  it('leaves texts without a credential-bearing URL alone', () => {
    for (const text of [
      'nonce too low',
      'http://127.0.0.1:8545',
      'http://127.0.0.1:8545/',
      'sent 0xabc (nonce 4)',
      'GET /api/gold/mint/0b9f',
      'a:b://',
      '    at send (file:///app/worker.mjs:1204:17)',
      'at x (webpack-internal:///(rsc)/./lib/a.ts:3:1)',
    ]) {
      expect(redactSecrets(text)).toBe(text)
    }
  })

  it('redacts an error in place, keeping its class', () => {
    class ChainDown extends Error {}
    const error = new ChainDown('HTTP request failed. URL: https://rpc.example/v3/SECRETKEY')
    expect(redactErrorInPlace(error)).toBe(error)
    expect(error).toBeInstanceOf(ChainDown)
    expect(error.message).toBe('HTTP request failed. URL: https://rpc.example/[redacted]')
    expect(error.stack).not.toContain('SECRETKEY')
    expect(redactErrorInPlace('text')).toBe('text')
  })
})
