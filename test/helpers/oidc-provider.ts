// A real OpenID Connect provider on loopback for sign-in tests: npm's oidc-provider (certified), with
// one client for Gatehouse and a small login page of our own in place of its interaction views — a
// form asking for an email (the account), then consent granted at once. The test decides which accounts
// exist and whether their email is verified.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { keepConnections } from './wait.ts';

export interface Account {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by the login typed into the form (the email). */
  accounts: Map<string, Account>;
  /** Registers Gatehouse's callback addresses (known once Gatehouse listens); call before any sign-in. */
  allowRedirects(redirectUris: string[]): void;
  close(): Promise<void>;
}

/** Reads an urlencoded form body. */
async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

const LOGIN_PAGE = (uid: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head>
<body><main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}/login">
<label for="login">Email</label> <input id="login" name="login" type="email" autocomplete="username">
<button type="submit">Sign in</button></form></main></body></html>`;

/** Starts the provider's listener; `allowRedirects` then makes the provider with Gatehouse's client. */
export async function startTestProvider(): Promise<TestProvider> {
  const accounts = new Map<string, Account>();
  const server = keepConnections(http.createServer());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'gatehouse-console';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  let provider: any;
  let callback: any;
  const make = (redirectUris: string[]) => new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    pkce: { required: () => true },
    // Lifetimes given, so the provider does not print a notice for each default it uses.
    ttl: { AccessToken: 3600, AuthorizationCode: 600, IdToken: 3600, Interaction: 3600, Session: 86_400, Grant: 86_400 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const handled = (async () => {
      const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
      if (!match) return callback(req, res);
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        if (!match[2]) {
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          return res.end(LOGIN_PAGE(details.uid));
        }
        const login = (await formBody(req)).get('login') ?? '';
        if (!accounts.has(login)) {
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          return res.end(LOGIN_PAGE(details.uid).replace('<form', '<p>Unknown account</p><form'));
        }
        return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      }
      // Consent: granted at once for what Gatehouse asks (openid email profile).
      const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    })();
    handled.catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    allowRedirects(redirectUris) {
      provider = make(redirectUris);
      callback = provider.callback();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
