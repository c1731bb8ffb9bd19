import { describe, expect, it } from 'vitest'
import { auditCsvHeader, auditCsvLine, auditJsonLine } from './auditExportFormats'

describe('the audit export formats', () => {
  it('a row as CSV and as a JSON line, in the same columns', () => {
    const row = {
      seq: '7',
      id: '12',
      at: '2026-12-04T19:00:00.123456Z',
      actorId: null,
      actorEmail: 'admin@mintdesk.local',
      action: 'job.retry',
      targetType: 'job',
      targetId: '5',
      detail: '{"reason": "a, b"}',
      prevHash: 'a'.repeat(64),
      hash: 'b'.repeat(64),
    }
    expect(auditCsvHeader()).toBe('seq,id,at,actorId,actorEmail,action,targetType,targetId,detail,prevHash,hash\r\n')
    expect(auditCsvLine(row)).toBe(
      `7,12,2026-12-04T19:00:00.123456Z,,admin@mintdesk.local,job.retry,job,5,"{""reason"": ""a, b""}",${'a'.repeat(64)},${'b'.repeat(64)}\r\n`,
    )
    expect(JSON.parse(auditJsonLine(row))).toEqual(row)
  })
})
