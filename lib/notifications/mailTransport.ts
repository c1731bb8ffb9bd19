import nodemailer, { type Transporter } from 'nodemailer'

const transports = new Map<string, Transporter>()

/** One nodemailer SMTP transport per SMTP_URL for the process (pooled connections, 10 s timeouts). */
export function mailTransport(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl)
  if (!transport) {
    const url = new URL(smtpUrl)
    transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
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
