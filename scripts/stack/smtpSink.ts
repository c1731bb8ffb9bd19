import { randomBytes } from 'node:crypto'
import { createWriteStream, mkdirSync } from 'node:fs'
import type { AddressInfo, Socket } from 'node:net'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { SMTPServer } from 'smtp-server'

export type StartSmtpSinkParameters = {
  /** where each message is written as <time>-<random>.eml (.data/mail in the local stack) */
  mailDir: string
  /** 0: a free port the system picks */
  port?: number
  host?: string
}

export type SmtpSink = {
  url: string
  port: number
  mailDir: string
  /** SMTP connections accepted since the start (a pooled client opens few) */
  connections: () => number
  /** destroys every open client connection, as a server that hangs up does */
  dropClients: () => void
  stop: () => Promise<void>
}

/**
 * The local stack's SMTP server (smtp-server from npm; docs/architecture.md "Real parts, and the
 * embedded defaults": SES in production). It accepts every message on loopback without
 * authentication and keeps it, exactly as received (headers and MIME body), as a .eml file
 * that any mail client opens. Nothing is relayed anywhere.
 */
export async function startSmtpSink({
  mailDir,
  port = 0,
  host = '127.0.0.1',
}: StartSmtpSinkParameters): Promise<SmtpSink> {
  mkdirSync(mailDir, { recursive: true })
  let connections = 0
  const sockets = new Set<Socket>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'mintdesk local mail sink',
    size: 10 * 1024 * 1024,
    logger: false,
    // stop at once: a client never keeps a connection open to the sink for long
    closeTimeout: 1_000,
    onConnect(_session, callback) {
      connections++
      callback()
    },
    onData(stream, _session, callback) {
      const file = path.join(
        mailDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      )
      pipeline(stream, createWriteStream(file)).then(
        () => callback(),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      )
    },
  })
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const bound = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://${host}:${bound}`,
    port: bound,
    mailDir,
    connections: () => connections,
    dropClients: () => {
      for (const socket of sockets) socket.destroy()
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
