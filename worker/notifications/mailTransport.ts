import nodemailer, { type Transporter } from 'nodemailer'

const transports = new Map<string, Transporter>()

/** One nodemailer SMTP transport per SMTP_URL for the process (pooled connections, 10 s timeouts). */
export function mailTransport(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl)
  if (!transport) {
    const url = new URL(smtpUrl)
    transport = nodemailer.createTransport({
      // one connection reused for the emails that follow (a connection, a greeting and, away
      // from loopback, a TLS handshake per email otherwise); a connection that fails or times
      // out idle leaves the pool, and the next email opens a new one
      pool: true,
      maxConnections: 2,
      maxMessages: 100,
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      // the local sink speaks plain SMTP on loopback; anywhere else STARTTLS is required
      requireTLS: url.protocol === 'smtp:' && !['localhost', '127.0.0.1', '::1', '[::1]'].includes(url.hostname),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 10_000,
    })
    transports.set(smtpUrl, transport)
  }
  return transport
}
