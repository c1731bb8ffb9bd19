import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ApiAttestationBar, ApiAttestationPack } from './apiTypes'
import { renderAttestationPack } from './renderAttestationPack'

const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const bar = (
  vault: string,
  serial: string,
  refiner: string,
  blockNumber: string,
  orderId: string,
): ApiAttestationBar => ({
  vault,
  serial,
  refiner,
  fineOz: '401.084',
  orderId,
  txHash: tx(Number(blockNumber)),
  blockNumber,
})

const BARS: ApiAttestationBar[] = [
  bar('ZRH-1', 'A1', 'Valcambi SA', '9', 'o-3'),
  bar('LDN-1', 'B2', 'Valcambi SA', '12', 'o-2'),
  bar('LDN-1', 'B2', 'PAMP SA', '100', 'o-5'),
  bar('LDN-1', 'a1', 'Valcambi SA', '3', 'o-1'),
  bar('LDN-1', 'B10', 'Valcambi SA', '12', 'o-2'),
  bar('LDN-1', 'B1', 'Valcambi SA', '12', 'o-4'),
  bar('LDN-1', 'B1', 'Valcambi SA', '9', 'o-9'),
]

function pack(bars: ApiAttestationBar[], vaults = ['ZRH-1', 'LDN-1']): ApiAttestationPack {
  return {
    kind: 'mintdesk.reserves-attestation',
    version: 1,
    chainId: 31337,
    tokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    block: { number: '120', hash: tx(120), timestamp: '2026-12-01T00:00:00.000Z' },
    totalSupply: '2807.588',
    barLists: vaults.map((vault) => ({
      vault,
      listId: `list-${vault}`,
      asOf: '2026-11-30T06:00:00.000Z',
      importedAt: '2026-11-30T07:00:00.000Z',
      barsRoot: tx(1),
      totalFineOz: '2807.588',
      signer: '0x00000000000000000000000000000000000000aa',
      custodianSignature: `0x${'11'.repeat(65)}`,
      barCount: 7,
      membersRecorded: 7,
    })),
    bars,
    totals: { totalSupply: '2807.588', backingFineOz: '2807.588', differenceOz: '0.000', status: 'covered' },
  }
}

describe('renderAttestationPack', () => {
  it('orders lists by vault and bars by vault, serial, refiner (code units, not a locale), then block (as a number) and order', () => {
    const { pack: ordered } = renderAttestationPack(pack(BARS))
    expect(ordered.barLists.map((l) => l.vault)).toEqual(['LDN-1', 'ZRH-1'])
    expect(ordered.bars.map((b) => `${b.vault} ${b.serial} ${b.refiner} ${b.blockNumber} ${b.orderId}`)).toEqual([
      'LDN-1 B1 Valcambi SA 9 o-9',
      'LDN-1 B1 Valcambi SA 12 o-4',
      'LDN-1 B10 Valcambi SA 12 o-2',
      'LDN-1 B2 PAMP SA 100 o-5',
      'LDN-1 B2 Valcambi SA 12 o-2',
      'LDN-1 a1 Valcambi SA 3 o-1',
      'ZRH-1 A1 Valcambi SA 9 o-3',
    ])
  })

  it('gives the same bytes, and so the same sha256, whatever order the rows came in', () => {
    const first = renderAttestationPack(pack(BARS))
    const reversed = renderAttestationPack(pack([...BARS].reverse(), ['LDN-1', 'ZRH-1']))
    expect(reversed.json.body).toBe(first.json.body)
    expect(reversed.csv.body).toBe(first.csv.body)
    for (const r of [first.json, first.csv]) expect(r.sha256).toBe(createHash('sha256').update(r.body).digest('hex'))
    expect(first.json.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(first.json.body.endsWith('}\n')).toBe(true)
    expect(JSON.parse(first.json.body)).toEqual(first.pack)
    expect(Object.keys(JSON.parse(first.json.body))).toEqual([
      'kind',
      'version',
      'chainId',
      'tokenAddress',
      'block',
      'totalSupply',
      'barLists',
      'bars',
      'totals',
    ])
  })

  it('writes the bars as CSV: a header, one CRLF row per bar, cells a spreadsheet would run as formulas defused', () => {
    const { csv } = renderAttestationPack(
      pack([bar('LDN-1', '=1+2', '@Refiner, "Ltd"', '7', 'o-1'), bar('LDN-1', 'B1', 'Valcambi SA', '8', 'o-2')]),
    )
    expect(csv.body).toBe(
      'vault,serial,refiner,fineOz,orderId,txHash,blockNumber\r\n' +
        `LDN-1,'=1+2,"'@Refiner, ""Ltd""",401.084,o-1,${tx(7)},7\r\n` +
        `LDN-1,B1,Valcambi SA,401.084,o-2,${tx(8)},8\r\n`,
    )
    expect(renderAttestationPack(pack([])).csv.body).toBe('vault,serial,refiner,fineOz,orderId,txHash,blockNumber\r\n')
  })
})
