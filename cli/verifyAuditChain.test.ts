import { describe, expect, it } from 'vitest'
import { AUDIT_GENESIS_HASH, type AuditChainRow, auditRowHash } from '@/lib/audit/auditRowHash'
import { verifyAuditChain } from './verifyAuditChain'

function chain(n: number): AuditChainRow[] {
  const rows: AuditChainRow[] = []
  let prev = AUDIT_GENESIS_HASH
  for (let i = 1; i <= n; i++) {
    const row = {
      seq: String(i),
      id: String(100 + i),
      at: `2026-12-04T19:00:0${i % 10}.123456Z`,
      actorId: i % 2 ? null : '00000000-0000-4000-8000-000000000001',
      actorEmail: 'admin@mintdesk.local',
      action: 'job.retry',
      targetType: 'job',
      targetId: String(i),
      detail: i % 3 ? null : '{"reason": "fixed: ünïcode and = signs"}',
      prevHash: prev,
    }
    prev = auditRowHash(row)
    rows.push({ ...row, hash: prev })
  }
  return rows
}

describe('verifyAuditChain', () => {
  it('an untouched chain holds, and gives its head', async () => {
    const rows = chain(6)
    expect(await verifyAuditChain(rows)).toEqual({ rows: 6, head: { seq: '6', hash: rows[5]?.hash }, broken: null })
  })

  it('names a rewritten row', async () => {
    const rows = chain(6)
    rows[3] = { ...(rows[3] as AuditChainRow), targetId: '999' }
    expect((await verifyAuditChain(rows)).broken).toMatchObject({ seq: '4', id: '104', reason: 'rewritten' })
  })

  it('names a row rehashed after a rewrite: the next one no longer links to it', async () => {
    const rows = chain(6)
    const forged = { ...(rows[2] as AuditChainRow), detail: '{"reason": "nothing"}' }
    rows[2] = { ...forged, hash: auditRowHash(forged) }
    expect((await verifyAuditChain(rows)).broken).toMatchObject({ seq: '4', reason: 'unlinked' })
  })

  it('names where rows were deleted', async () => {
    const rows = chain(6)
    rows.splice(2, 2)
    expect((await verifyAuditChain(rows)).broken).toMatchObject({ seq: '5', reason: 'missing_rows' })
  })

  it('a first row that does not start from zeros is refused; a walk from a later row takes its link', async () => {
    const rows = chain(4)
    expect(
      (await verifyAuditChain([{ ...(rows[0] as AuditChainRow), prevHash: 'f'.repeat(64) }])).broken,
    ).toMatchObject({ seq: '1', reason: 'unlinked' })
    expect((await verifyAuditChain(rows.slice(2))).broken).toBeNull()
  })
})
