import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '@/scripts/stack/smtpSink'
import { mailTransport } from './mailTransport'

const mail = (to: string) => ({ from: 'mintdesk@example.test', to, subject: 'order confirmed', text: 'minted' })

describe('mailTransport', () => {
  let sink: SmtpSink | undefined
  const start = async () =>
    (sink = await startSmtpSink({ mailDir: mkdtempSync(path.join(os.tmpdir(), 'mintdesk-pool-')) }))
  const received = () => (sink ? readdirSync(sink.mailDir).length : 0)
  afterEach(async () => {
    if (sink) mailTransport(sink.url).close()
    await sink?.stop()
    if (sink) rmSync(sink.mailDir, { recursive: true, force: true })
    sink = undefined
  })

  it('sends the emails that follow one another over one SMTP connection', async () => {
    const s = await start()
    const transport = mailTransport(s.url)
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test']) await transport.sendMail(mail(to))
    expect(received()).toBe(3)
    expect(s.connections()).toBe(1)
  })

  it('opens a new connection when the server dropped the pooled one, and the next email is sent', async () => {
    const s = await start()
    const transport = mailTransport(s.url)
    await transport.sendMail(mail('a@example.test'))
    s.dropClients()
    await new Promise((r) => setTimeout(r, 100))
    await transport.sendMail(mail('b@example.test'))
    expect(received()).toBe(2)
    expect(s.connections()).toBe(2)
  })
})
