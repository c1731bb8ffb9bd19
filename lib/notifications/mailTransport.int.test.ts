import { afterEach, describe, expect, it } from 'vitest'
import { type CountingSmtpSink, startCountingSmtpSink } from '@/tests/helpers/startCountingSmtpSink'
import { mailTransport } from './mailTransport'

const mail = (to: string) => ({ from: 'mintdesk@example.test', to, subject: 'order confirmed', text: 'minted' })

describe('mailTransport', () => {
  let sink: CountingSmtpSink | undefined
  afterEach(async () => {
    if (sink) mailTransport(sink.url).close()
    await sink?.stop()
    sink = undefined
  })

  it('sends the emails that follow one another over one SMTP connection', async () => {
    sink = await startCountingSmtpSink()
    const transport = mailTransport(sink.url)
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test']) await transport.sendMail(mail(to))
    expect(sink.received()).toBe(3)
    expect(sink.connections()).toBe(1)
  })

  it('opens a new connection when the server dropped the pooled one, and the next email is sent', async () => {
    sink = await startCountingSmtpSink()
    const transport = mailTransport(sink.url)
    await transport.sendMail(mail('a@example.test'))
    sink.dropClients()
    await new Promise((r) => setTimeout(r, 100))
    await transport.sendMail(mail('b@example.test'))
    expect(sink.received()).toBe(2)
    expect(sink.connections()).toBe(2)
  })
})
