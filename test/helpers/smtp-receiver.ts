// A real SMTP server on loopback for notification tests (npm's smtp-server, STARTTLS offered with its
// built-in self-signed certificate, a login required); every message is parsed with mailparser.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Whether the session was upgraded to TLS (STARTTLS) before the message was sent. */
  secure: boolean;
  user: string | undefined;
}

export const SMTP_USER = 'gatehouse';
export const SMTP_PASSWORD = 'p@ss word';

export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  port = 0;

  /** `secure`: TLS from the first byte (an smtps:// server) instead of STARTTLS. */
  constructor(private readonly secure = false) {}

  static async start(secure = false): Promise<SmtpReceiver> {
    const receiver = new SmtpReceiver(secure);
    await receiver.listen();
    return receiver;
  }

  /** `smtp://` with the login, accepting the test server's self-signed certificate after STARTTLS. */
  get url(): string {
    return `${this.secure ? 'smtps' : 'smtp'}://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${this.port}/?tls.rejectUnauthorized=false`;
  }

  /** Starts listening (again, on the same port after `stop`). */
  async listen(): Promise<void> {
    this.server = new SMTPServer({
      secure: this.secure,
      authOptional: false,
      // Login only once the session is encrypted: proves STARTTLS was used.
      allowInsecureAuth: false,
      logger: false,
      // Going down cuts open connections (a pooled client's too) instead of waiting 30 s for them.
      closeTimeout: 100,
      onAuth: (auth, _session, done) => {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) done(null, { user: auth.username });
        else done(new Error('Invalid username or password'));
      },
      onData: (stream, session, done) => {
        simpleParser(stream).then((parsed) => {
          const to = parsed.to === undefined ? [] : (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a.value.map((v) => v.address ?? ''));
          this.mails.push({
            from: parsed.from?.text ?? '', to, subject: parsed.subject ?? '', text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '',
            secure: session.secure, user: session.user as string | undefined,
          });
          this.waiters = this.waiters.filter((w) => (w.test() ? (w.resolve(), false) : true));
          done();
        }, done);
      },
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server.server, 'listening');
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  /** Stops listening: connections are refused until `listen` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The mails sent to `address`. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }
}
