// The email channel: nodemailer over SMTP, configured by one URL (GATEHOUSE_SMTP_URL).
import type { Transporter } from 'nodemailer';
import { AddressRefused, smtpSocket, type AddressPolicy } from '../../../http/outbound.ts';
import type { Email, EmailChannel, Outcome } from './channel.ts';

/** Reply codes that mean "this mailbox will never work" (550–553): give up. Others (a refused login, 4xx) may be fixed: retry. */
const PERMANENT = /^55[0-3]$/;

/**
 * An SMTP channel for `url` (`smtp://` upgrades with STARTTLS when the server offers it, `smtps://`
 * is TLS from the start; user and password in the URL; nodemailer's `?tls.…` options allowed).
 * Connections are pooled and reused (measured: a new connection with STARTTLS and a login per
 * message delivered 7 emails/s to a loopback server; see docs/notifications.md); the pool reconnects
 * when the server closed one meanwhile. Under GATEHOUSE_PRIVATE_ADDRESSES=deny each connection is made
 * through the policy (nodemailer's getSocket), so the server's address is checked where it is connected to.
 */
export function createSmtpChannel(url: string, from: string, addresses: AddressPolicy, timeoutMs = 30_000): EmailChannel {
  // nodemailer is loaded with the first email, not at every start of a service that may never send one.
  let transport: Promise<Transporter> | undefined;
  const connect = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 3,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    ...(addresses.denies && {
      getSocket(options: { host?: string; port?: number | string; secure?: boolean }, callback: (err: Error | null, socket?: { connection: unknown }) => void) {
        // nodemailer's own defaults: localhost, 465 for smtps://, else 587.
        const port = Number(options.port) || (options.secure ? 465 : 587);
        smtpSocket(addresses, options.host ?? 'localhost', port, timeoutMs, (err, socket) => (err ? callback(err) : callback(null, { connection: socket })));
      },
    }),
  } as Parameters<typeof nodemailer.createTransport>[0])));
  return {
    async send(email: Email): Promise<Outcome<{ messageId: string }>> {
      try {
        const info = await (await connect()).sendMail({ from, to: email.to, subject: email.subject, text: email.text, html: email.html });
        return { ok: true, messageId: String(info.messageId) };
      } catch (err) {
        const e = err as { responseCode?: number; code?: string; message?: string };
        const code = e.responseCode !== undefined ? String(e.responseCode) : '';
        // The server's reply says what happened; a connection failure names its code (ECONNREFUSED).
        const error = code !== '' ? `SMTP ${code}: ${(e.message ?? '').slice(0, 300)}`
          : err instanceof AddressRefused ? `SMTP connection refused: ${err.message}` : `SMTP connection failed: ${e.code ?? 'error'}`;
        return { ok: false, error, retryable: !PERMANENT.test(code) };
      }
    },
    close: () => void transport?.then((open) => open.close()),
  };
}
