import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type Address, encodeAbiParameters } from 'viem'
import { describe, expect, it } from 'vitest'
import { vaultId } from './bars'
import {
  barListTypes,
  type ControlChangeAction,
  ControlChangeDecodeError,
  controlChangeTypes,
  DEV_APPROVAL_RULE,
  decodeControlChange,
  encodeControlChange,
  freezeIntentTypes,
  goldMinterDomain,
  mintIntentTypedData,
  mintIntentTypes,
  pauseIntentTypes,
  redemptionIntentTypes,
  sortApprovals,
} from './typedData'

const source = readFileSync(path.join(import.meta.dirname, '../../contracts/GoldMinter.sol'), 'utf8')
const A: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const B: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('lib/chain/typedData.ts', () => {
  it("spells each type as GoldMinter.sol's typehash does, field for field", () => {
    for (const types of [
      mintIntentTypes,
      redemptionIntentTypes,
      freezeIntentTypes,
      pauseIntentTypes,
      barListTypes,
      controlChangeTypes,
    ]) {
      const [[name, fields]] = Object.entries<readonly { name: string; type: string }[]>(types)
      const encoded = `${name}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`
      expect(source, `GoldMinter.sol hashes ${encoded}`).toContain(`keccak256("${encoded}")`)
    }
    expect(source).toContain(`EIP712("${goldMinterDomain({ chainId: 1, verifyingContract: A }).name}", "1")`)
  })

  it('builds typed data ready for signTypedData: the domain binds the chain and the GoldMinter contract', () => {
    const message = {
      orderId: `0x${'11'.repeat(32)}`,
      to: A,
      amount: 5n,
      barsHash: `0x${'22'.repeat(32)}`,
      deadline: 9n,
    } as const
    expect(mintIntentTypedData({ chainId: 31337, verifyingContract: B }, message)).toEqual({
      domain: { name: 'GoldMinter', version: '1', chainId: 31337, verifyingContract: B },
      types: mintIntentTypes,
      primaryType: 'MintIntent',
      message,
    })
  })

  it('encodes each control change as its action and abi-encoded params, and decodes it back', () => {
    const changes: ControlChangeAction[] = [
      { action: 'addApprover', account: A },
      { action: 'removeApprover', account: A },
      { action: 'addAdmin', account: B },
      { action: 'removeAdmin', account: B },
      { action: 'setRedemptionAddress', account: A },
      { action: 'setApprovalRule', rule: DEV_APPROVAL_RULE },
      { action: 'setRateLimit', capacity: 10n ** 23n, refillPerSecond: 10n ** 18n },
      { action: 'setCustodian', vault: vaultId('LDN-1'), custodian: B },
      { action: 'setAdminThreshold', threshold: 2n },
    ]
    for (const change of changes) expect(decodeControlChange(encodeControlChange(change))).toEqual(change)
    expect(encodeControlChange({ action: 'setAdminThreshold', threshold: 3n })).toEqual({
      action: 'setAdminThreshold',
      params: encodeAbiParameters([{ type: 'uint256' }], [3n]),
    })
    expect(() => decodeControlChange({ action: 'grantRole', params: '0x' })).toThrow(ControlChangeDecodeError)
    expect(() => decodeControlChange({ action: 'setRateLimit', params: '0x01' })).toThrow(/do not decode/)
  })

  it('sorts signatures by signer address, ascending, whatever the case of the addresses', () => {
    const first = { signer: '0x00000000000000000000000000000000000000aa' as Address, signature: '0x01' as const }
    const second = { signer: B, signature: '0x02' as const } // 0x3c44...
    const third = { signer: A.toLowerCase() as Address, signature: '0x03' as const } // 0x7099...
    expect(sortApprovals([third, first, second])).toEqual([first, second, third])
  })
})
