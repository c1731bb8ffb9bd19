import { describe, expect, it } from 'vitest'
import { availableSigners } from './availableSigners'

describe('the signers a page offers', () => {
  it('production offers the wallet only; dev mode the dev signer as well', () => {
    expect(availableSigners({ production: true })).toEqual(['wallet'])
    expect(availableSigners({ production: false })).toEqual(['wallet', 'dev'])
  })
})
