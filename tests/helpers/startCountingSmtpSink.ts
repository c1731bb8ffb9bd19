import type { AddressInfo, Socket } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type CountingSmtpSink = {
  url: string
  /** connections accepted so far */
  connections: () => number
  /** messages received so far */
  received: () => number
  /** destroys every open client connection, as a server that hangs up does */
  dropClients: () => void
  stop: () => Promise<void>
}

/** An SMTP server on loopback that counts the connections it accepted and the messages it received (and keeps none of them). */
export async function startCountingSmtpSink(): Promise<CountingSmtpSink> {
  let connections = 0
  let received = 0
  const sockets = new Set<Socket>()
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
  server.server.on('connection', (socket: Socket) => {
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
