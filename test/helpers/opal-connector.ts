// A loopback Opal custom connector for tests: the protocol over real HTTP, every request's signature
// verified, state in memory, and faults on demand (429, 500, 404, garbage, slow past the timeout).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepConnections } from './wait.ts';

export type Fault = 'throttle' | 'error' | 'not_found' | 'garbage' | 'slow' | 'bad_request';

export interface RemoteResource {
  name: string;
  levels: { id: string; name: string }[];
  /** user id → levels ('' is no level) */
  users: Map<string, Set<string>>;
}
export interface RemoteGroup {
  name: string;
  users: Set<string>;
  /** `${resourceId}\n${level}` */
  resources: Set<string>;
  memberGroups: Set<string>;
}

export class OpalConnector {
  readonly users = new Map<string, string>(); // id → email
  readonly resources = new Map<string, RemoteResource>();
  readonly groups = new Map<string, RemoteGroup>();
  /** Every request received: method, path, app_id, whether its signature verified. */
  readonly calls: { method: string; path: string; appId: string | null; signed: boolean; body: unknown }[] = [];
  /** Faults to answer the next write calls with, in order (reads are answered normally unless `faultReads`). */
  faults: Fault[] = [];
  /** A fault every write call gets while set (an outage). */
  outage: Fault | null = null;
  faultReads = false;
  /**
   * Whether it creates and removes users (Opal's POST /users → {remote_user_id}, DELETE /users/{id}); a
   * connector without them answers 501, as the spec's generated servers do for a route not implemented.
   */
  createsUsers = false;
  /**
   * The id POST /users answers for an email, when it returns one (a connector that answers an account it
   * already has, someone else's perhaps); undefined: it makes a new user `made-N`, as usual.
   */
  createAnswer: ((email: string) => string | undefined) | null = null;
  /**
   * Answers every 404 as the spec's EntityNotFoundError with one generic message ("Entity not found"),
   * naming neither the user nor the resource, as a connector may.
   */
  genericNotFound = false;
  /**
   * Words of its own for a 404 (what is missing; the request's path parts and body), as connectors word
   * them: "resource r-1 not found for user u-1" names both. Null: "<what> not found".
   */
  notFoundWording: ((what: string, parts: string[], body: Record<string, unknown>) => string) | null = null;
  /** What each POST /users asked for (user_id, attributes), in order. */
  readonly created: { user_id: unknown; attributes: Record<string, unknown> }[] = [];
  /** How long `slow` waits before answering, in ms. */
  slowMs = 2_000;
  /** Write calls being held unanswered right now (holdWrites). */
  holding = 0;
  #hold: Promise<void> | null = null;
  pageSize = 2;
  /** Answers a GET itself when it returns something (an endless or hostile list); undefined: the usual answer. */
  answer: ((path: string, cursor: string | null) => unknown) | null = null;
  /** While set, every GET waits for it before it is answered (a sync held part-way). */
  hold: Promise<void> | null = null;
  /** Called on every request before it is answered (a test moves its clock here). */
  onRequest: (() => void) | null = null;
  server!: Server;
  url = '';
  #sockets = new Set<import('node:net').Socket>();

  constructor(readonly secret: string) {}

  async start(): Promise<this> {
    this.server = keepConnections(createServer((req, res) => void this.#handle(req, res)));
    this.server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Holds every write call unanswered until the function returned is called (a remote system that hangs). */
  holdWrites(): () => void {
    let release!: () => void;
    this.#hold = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.#hold = null;
      release();
    };
  }

  /** Forgets every user and their memberships, as a connector that keeps them in memory does when it restarts (resources and groups stay). */
  forget(): void {
    this.users.clear();
    for (const r of this.resources.values()) r.users.clear();
    for (const g of this.groups.values()) g.users.clear();
  }

  get badSignatures(): number {
    return this.calls.filter((c) => !c.signed).length;
  }

  /** Every edge held, as comparable strings (kind:principal:item:level). */
  edges(): string[] {
    const out: string[] = [];
    for (const [rid, r] of this.resources) for (const [uid, levels] of r.users) for (const l of levels) out.push(`resource_user:${uid}:${rid}:${l}`);
    for (const [gid, g] of this.groups) {
      for (const uid of g.users) out.push(`group_user:${uid}:${gid}:`);
      for (const rl of g.resources) {
        const [rid, l] = rl.split('\n');
        out.push(`group_resource:${gid}:${rid}:${l}`);
      }
      for (const mid of g.memberGroups) out.push(`group_group:${mid}:${gid}:`);
    }
    return out.sort();
  }

  #verify(req: IncomingMessage, body: string): boolean {
    const ts = req.headers['x-opal-request-timestamp'];
    const sig = req.headers['x-opal-signature'];
    if (typeof ts !== 'string' || typeof sig !== 'string' || !/^\d+$/.test(ts)) return false;
    const expected = createHmac('sha256', this.secret).update(`v0:${ts}:${body === '' ? '{}' : body}`).digest('hex');
    return sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  }

  #inFlight = 0;

  /** Resolves once no request is being handled (a slow answer's late write has landed). */
  async idle(): Promise<void> {
    while (this.#inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.#inFlight += 1;
    try {
      await this.#handleOne(req, res);
    } finally {
      this.#inFlight -= 1;
    }
  }

  async #handleOne(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url!, 'http://x');
    const signed = this.#verify(req, raw);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch { /* answered below */ }
    const appId = req.method === 'POST' ? (body.app_id as string | undefined) ?? null : url.searchParams.get('app_id');
    this.calls.push({ method: req.method!, path: url.pathname, appId, signed, body });
    this.onRequest?.();
    if (req.method === 'GET' && this.hold) await this.hold;
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const own = req.method === 'GET' && this.answer ? this.answer(url.pathname, url.searchParams.get('cursor')) : undefined;
    if (own !== undefined) return send(200, own);
    if (!signed) return send(401, { code: 401, message: 'invalid request signature' });
    if (!appId) return send(400, { code: 400, message: 'app_id is required' });
    const write = req.method !== 'GET';
    const fault = write || this.faultReads ? (this.outage ?? this.faults.shift()) : undefined;
    if (fault === 'throttle') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
      return void res.end(JSON.stringify({ code: 429, message: 'slow down' }));
    }
    if (fault === 'error') return send(500, { code: 500, message: 'internal error' });
    if (fault === 'not_found') return send(404, { code: 404, message: 'resource not found' });
    if (fault === 'bad_request') return send(400, { code: 400, message: 'bad request' });
    if (fault === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html>not json');
    }
    if (fault === 'slow') {
      // Until the answer is due or the caller hangs up, whichever comes first: a timer left running
      // after a caller is gone (a killed service waits on a 120 s answer) held the test process open.
      await new Promise<void>((resolve) => {
        const due = setTimeout(resolve, this.slowMs);
        res.once('close', () => {
          clearTimeout(due);
          resolve();
        });
      });
      if (res.destroyed) return;
    }
    if (write && this.#hold) {
      this.holding += 1;
      await this.#hold;
      this.holding -= 1;
      if (res.destroyed) return;
    }
    this.#route(req.method!, url, body, send);
  }

  #page<T>(items: T[], url: URL, field: string) {
    const start = Number(url.searchParams.get('cursor') ?? '0');
    const slice = items.slice(start, start + this.pageSize);
    const next = start + this.pageSize < items.length ? String(start + this.pageSize) : null;
    return { [field]: slice, next_cursor: next };
  }

  #route(method: string, url: URL, body: Record<string, unknown>, send: (status: number, json: unknown) => void): void {
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const level = url.searchParams.get('access_level_id') ?? '';
    const notFound = (what: string) =>
      send(404, { code: 404, message: this.genericNotFound ? 'Entity not found' : (this.notFoundWording?.(what, parts, body) ?? `${what} not found`) });
    if (method === 'GET' && parts[0] === 'status') return send(200, {});
    if (method === 'GET' && parts[0] === 'users' && parts.length === 1) {
      return send(200, this.#page([...this.users].map(([id, email]) => ({ id, email })), url, 'users'));
    }
    if (parts[0] === 'users' && (method === 'POST' || method === 'DELETE')) {
      if (!this.createsUsers) return send(501, { code: 501, message: 'not implemented' });
      if (method === 'POST' && parts.length === 1) {
        const attributes = (body.attributes ?? {}) as Record<string, unknown>;
        const email = String(attributes.email ?? '');
        if ([...this.users.values()].some((known) => known.toLowerCase() === email.toLowerCase())) return send(409, { code: 409, message: 'user already exists' });
        this.created.push({ user_id: body.user_id, attributes });
        const answered = this.createAnswer?.(email);
        if (answered !== undefined) return send(200, { remote_user_id: answered });
        const id = `made-${this.created.length}`;
        this.users.set(id, email);
        return send(200, { remote_user_id: id });
      }
      if (method === 'DELETE' && parts.length === 2) {
        if (!this.users.delete(parts[1]!)) return notFound('user');
        return send(200, {});
      }
    }
    if (parts[0] === 'resources') {
      if (method === 'GET' && parts.length === 1) return send(200, this.#page([...this.resources].map(([id, r]) => ({ id, name: r.name })), url, 'resources'));
      const r = this.resources.get(parts[1]!);
      if (!r) return notFound('resource');
      if (method === 'GET' && parts.length === 2) return send(200, { resource: { id: parts[1], name: r.name } });
      if (method === 'GET' && parts[2] === 'access_levels') return send(200, this.#page(r.levels, url, 'access_levels'));
      if (parts[2] === 'users') {
        if (method === 'GET') {
          const rows = [...r.users].flatMap(([uid, levels]) => [...levels].map((l) => ({ user_id: uid, email: this.users.get(uid), ...(l && { access_level: { id: l, name: l } }) })));
          return send(200, this.#page(rows, url, 'users'));
        }
        if (method === 'POST') {
          const uid = String(body.user_id);
          if (!this.users.has(uid)) return notFound('user');
          const l = (body.access_level_id as string | undefined) ?? '';
          if (l && !r.levels.some((x) => x.id === l)) return notFound('access level');
          if (!r.users.has(uid)) r.users.set(uid, new Set());
          r.users.get(uid)!.add(l);
          return send(200, {});
        }
        if (method === 'DELETE') {
          const held = r.users.get(parts[3]!);
          if (!held?.has(level)) return notFound('user access');
          held.delete(level);
          if (held.size === 0) r.users.delete(parts[3]!);
          return send(200, {});
        }
      }
    }
    if (parts[0] === 'groups') {
      if (method === 'GET' && parts.length === 1) return send(200, this.#page([...this.groups].map(([id, g]) => ({ id, name: g.name })), url, 'groups'));
      const g = this.groups.get(parts[1]!);
      if (!g) return notFound('group');
      if (method === 'GET' && parts.length === 2) return send(200, { group: { id: parts[1], name: g.name } });
      if (parts[2] === 'users') {
        if (method === 'GET') return send(200, this.#page([...g.users].map((uid) => ({ user_id: uid, email: this.users.get(uid) })), url, 'users'));
        if (method === 'POST') {
          if (!this.users.has(String(body.user_id))) return notFound('user');
          g.users.add(String(body.user_id));
          return send(200, {});
        }
        if (method === 'DELETE') return g.users.delete(parts[3]!) ? send(200, {}) : notFound('group user');
      }
      if (parts[2] === 'resources') {
        if (method === 'GET') {
          return send(200, this.#page([...g.resources].map((rl) => {
            const [rid, l] = rl.split('\n');
            return { resource_id: rid, ...(l && { access_level: { id: l, name: l } }) };
          }), url, 'resources'));
        }
        if (method === 'POST') {
          if (!this.resources.has(String(body.resource_id))) return notFound('resource');
          g.resources.add(`${String(body.resource_id)}\n${(body.access_level_id as string | undefined) ?? ''}`);
          return send(200, {});
        }
        if (method === 'DELETE') return g.resources.delete(`${parts[3]}\n${level}`) ? send(200, {}) : notFound('group resource');
      }
      if (parts[2] === 'member-groups') {
        if (method === 'GET') return send(200, this.#page([...g.memberGroups].map((id) => ({ group_id: id })), url, 'groups'));
        if (method === 'POST') {
          if (!this.groups.has(String(body.group_id))) return notFound('group');
          g.memberGroups.add(String(body.group_id));
          return send(200, {});
        }
        if (method === 'DELETE') return g.memberGroups.delete(parts[3]!) ? send(200, {}) : notFound('member group');
      }
    }
    return send(404, { code: 404, message: 'no such route' });
  }
}
