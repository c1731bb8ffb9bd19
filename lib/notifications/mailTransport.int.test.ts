import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, it } from 'vitest'
import { mailTransport } from './mailTransport'

type Sink = { url: string; connections: () => number; received: () => number; dropClients: () => void; stop: () => Promise<void> }

/** An SMTP server that counts the connections it accepted and the messages it received. */
async function startCountingSink(): Promise<Sink> {
  let connections = 0
  let received = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++
      callback()
    },
    onData(stream, _session, callback) {
      stream.resume()
      stream.on('end', () => {
        received++
        callback()
      })
    },
  })
  const sockets = new Set<import('node:net').Socket>()
  server.server.on('connection', (socket: import('node:net').Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => connections,
    received: () => received,
    dropClients: () => {
      for (const s of sockets) s.destroy()
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const mail = (to: string) => ({ from: 'mintdesk@example.test', to, subject: 'order confirmed', text: 'minted' })

describe('mailTransport', () => {
  let sink: Sink | undefined
  afterEach(async () => {
    if (sink) mailTransport(sink.url).close()
    await sink?.stop()
    sink = undefined
  })

  it('sends the emails that follow one another over one SMTP connection', async () => {
    sink = await startCountingSink()
    const transport = mailTransport(sink.url)
    for (const to of ['a@example.test', 'b@example.test', 'c@example.test']) await transport.sendMail(mail(to))
    expect(sink.received()).toBe(3)
    expect(sink.connections()).toBe(1)
  })

  it('opens a new connection when the server dropped the pooled one, and the next email is sent', async () => {
    sink = await startCountingSink()
    const transport = mailTransport(sink.url)
    await transport.sendMail(mail('a@example.test'))
    sink.dropClients()
    await new Promise((r) => setTimeout(r, 100))
    await transport.sendMail(mail('b@example.test'))
    expect(sink.received()).toBe(2)
    expect(sink.connections()).toBe(2)
  })
})
