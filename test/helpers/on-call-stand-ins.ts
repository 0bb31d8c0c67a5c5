// Loopback stand-ins for PagerDuty's REST API v2 and Opsgenie's REST API, stateful, speaking the shapes their
// public documents give (test/helpers/reference.ts; every answer is checked against them with Ajv when present):
// users with emails, schedules whose shifts have a start and an end, overrides on top, incidents (PagerDuty),
// outages (an HTTP status, or no answer at all) and slow answers. Time is the test's clock (`now`).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkOpsgenieAnswer, checkPagerDutyAnswer, type AnswerCheck } from './provider-documents.ts';
import { keepConnections } from './wait.ts';

export const PAGERDUTY_TOKEN = 'u+pd-test-token-1234567890';
export const OPSGENIE_KEY = 'og-test-key-0000-1111-2222';

export interface Person { id: string; name: string; email: string }
export interface Span { userId: string; start: string; end: string; rotation?: number }
export interface Schedule { id: string; name: string; shifts: Span[]; overrides: Span[] }
export interface Call { path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }

/**
 * Who is on call when, per rotation (PagerDuty's final schedule is one rotation; Opsgenie's on-call is every
 * rotation's): the shifts, with overrides on top of rotation 1 (the last added wins), as contiguous
 * same-person stretches.
 */
export function finalTimeline(schedule: Schedule): Span[] {
  const rotations = [...new Set(schedule.shifts.map((s) => s.rotation ?? 1))].sort();
  if (!rotations.includes(1) && schedule.overrides.length > 0) rotations.unshift(1);
  const spans: Span[] = [];
  for (const rotation of rotations) {
    const shifts = schedule.shifts.filter((s) => (s.rotation ?? 1) === rotation);
    const overrides = rotation === 1 ? schedule.overrides : [];
    const points = [...new Set([...shifts, ...overrides].flatMap((s) => [s.start, s.end]))].sort();
    const who = (at: string) => {
      const within = (s: Span) => s.start <= at && at < s.end;
      return [...overrides].reverse().find(within)?.userId ?? shifts.find(within)?.userId;
    };
    const own: Span[] = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const userId = who(points[i]!);
      if (userId === undefined) continue;
      const last = own.at(-1);
      if (last && last.userId === userId && last.end === points[i]) last.end = points[i + 1]!;
      else own.push({ userId, start: points[i]!, end: points[i + 1]!, rotation });
    }
    spans.push(...own);
  }
  return spans;
}

/** What both stand-ins share: the server, people, schedules, faults, the record of calls and of answers the document refused. */
abstract class StandIn {
  readonly calls: Call[] = [];
  /** Answers that did not fit the provider's public document (a test asserts none). */
  readonly violations: string[] = [];
  readonly people = new Map<string, Person>();
  readonly schedules = new Map<string, Schedule>();
  /** While set, every call is answered with this status (an outage), or not answered at all ('hang'). */
  outage: number | 'hang' | null = null;
  /** Each answer waits this long first (real time; keep it far under the service's 10 s bound). */
  slowMs = 0;
  /**
   * While set, only the calls naming this remote id (in the path or a query value) are slow: a sync reads
   * every schedule followed, and the others' calls, slowed too, made one test wait seconds for nothing.
   */
  slowOnly: string | null = null;
  private seq = 0;
  private readonly hanging = new Set<ServerResponse>();
  protected server!: Server;
  url = '';

  constructor(protected readonly now: () => Date, private readonly check: AnswerCheck) {}

  protected async listen(): Promise<void> {
    this.server = keepConnections(createServer((req, res) => void this.handle(req, res)));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  protected nextId(prefix: string): string {
    return `${prefix}${String(++this.seq).padStart(6, '0')}`;
  }

  addPerson(name: string, email: string): string {
    const id = this.nextId('PU');
    this.people.set(id, { id, name, email });
    return id;
  }

  /** A schedule named `name` (with the id given, or a new one); returns its id. */
  addSchedule(name: string, id = this.nextId('PS')): string {
    this.schedules.set(id, { id, name, shifts: [], overrides: [] });
    return id;
  }

  /** `userId` is on call for the schedule from `start` to `end` (ISO instants), in rotation `rotation`. */
  shift(scheduleId: string, userId: string, start: string, end: string, rotation = 1): void {
    this.schedules.get(scheduleId)!.shifts.push({ userId, start, end, rotation });
  }

  /** An override: `userId` takes the schedule from `start` to `end`, over whoever has the shift. */
  override(scheduleId: string, userId: string, start: string, end: string): void {
    this.schedules.get(scheduleId)!.overrides.push({ userId, start, end });
  }

  close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    this.calls.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    if (this.outage === 'hang') {
      this.hanging.add(res);
      return;
    }
    const named = (id: string) => url.pathname.split('/').includes(id) || [...url.searchParams.values()].includes(id);
    if (this.slowMs > 0 && (this.slowOnly === null || named(this.slowOnly))) await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    // Throttled: Retry-After in seconds, as both providers send it.
    if (this.outage === 429) return this.send(res, null, 429, { message: 'Too Many Requests' }, { 'retry-after': '120' });
    if (this.outage !== null) return this.send(res, null, this.outage, { message: 'Service Unavailable' });
    const [template, status, body] = this.answer(req, url);
    this.send(res, template, status, body);
  }

  private send(res: ServerResponse, template: string | null, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (template !== null) {
      const problem = this.check(template, status, body);
      if (problem) this.violations.push(problem);
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
  }

  /** The answer to one call: the document's path template (for the check), the status, the body. */
  protected abstract answer(req: IncomingMessage, url: URL): [string | null, number, unknown];

  /** The final timeline's spans overlapping [since, until]. */
  protected overlapping(schedule: Schedule, since: string, until: string): Span[] {
    return finalTimeline(schedule).filter((s) => s.start <= until && s.end > since);
  }
}

export class PagerDutyStandIn extends StandIn {
  /** The most on-call entries a page holds, whatever the limit asked. */
  pageCap = 100;
  readonly incidents = new Map<string, { id: string; status: 'triggered' | 'acknowledged' | 'resolved'; title: string }>();

  static async start(now: () => Date): Promise<PagerDutyStandIn> {
    const standIn = new PagerDutyStandIn(now, checkPagerDutyAnswer);
    await standIn.listen();
    return standIn;
  }

  addIncident(status: 'triggered' | 'acknowledged' | 'resolved', title = 'The server is on fire.'): string {
    const id = this.nextId('PI');
    this.incidents.set(id, { id, status, title });
    return id;
  }

  private ref(type: string, id: string, summary: string) {
    return { id, type, summary, self: `https://api.pagerduty.com/${type.replace('_reference', '')}s/${id}`, html_url: `https://example.pagerduty.com/${id}` };
  }

  private user(id: string, full: boolean) {
    const p = this.people.get(id)!;
    return full
      ? { id, type: 'user_reference', summary: p.name, name: p.name, email: p.email, time_zone: 'Etc/UTC', role: 'user', self: `https://api.pagerduty.com/users/${id}`, html_url: `https://example.pagerduty.com/users/${id}` }
      : this.ref('user_reference', id, p.name);
  }

  protected answer(req: IncomingMessage, url: URL): [string | null, number, unknown] {
    const error = (_status: number, message: string, code: number) => ({ error: { message, code } });
    if (req.headers.authorization !== `Token token=${PAGERDUTY_TOKEN}`) return [null, 401, error(401, 'Unauthorized', 2006)];
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'schedules' && parts.length === 2) {
      const schedule = this.schedules.get(decodeURIComponent(parts[1]!));
      if (!schedule) return ['/schedules/{id}', 404, error(404, 'Not Found', 2100)];
      return ['/schedules/{id}', 200, {
        schedule: {
          id: schedule.id, type: 'schedule', summary: schedule.name, name: schedule.name, time_zone: 'Etc/UTC', description: '',
          self: `https://api.pagerduty.com/schedules/${schedule.id}`, html_url: `https://example.pagerduty.com/schedules/${schedule.id}`,
          users: [...new Set(schedule.shifts.map((s) => s.userId))].map((id) => this.ref('user_reference', id, this.people.get(id)!.name)),
          escalation_policies: [], teams: [], schedule_layers: [],
        },
      }];
    }
    if (parts[0] === 'oncalls' && parts.length === 1) {
      const ids = url.searchParams.getAll('schedule_ids[]');
      const full = url.searchParams.getAll('include[]').includes('users');
      const now = this.now().toISOString();
      const since = url.searchParams.get('since') ?? now;
      const until = url.searchParams.get('until') ?? now;
      if (until < since) return ['/oncalls', 400, error(400, 'Invalid Input Provided', 2001)];
      const entries = ids.flatMap((id) => {
        const schedule = this.schedules.get(id);
        if (!schedule) return [];
        return this.overlapping(schedule, since, until).map((span) => ({
          user: this.user(span.userId, full),
          schedule: this.ref('schedule_reference', schedule.id, schedule.name),
          escalation_policy: this.ref('escalation_policy_reference', 'PEP0001', 'Engineering'),
          escalation_level: 1, start: span.start, end: span.end,
        }));
      });
      // PagerDuty answers at most 100 a page (fewer when `pageCap` is set), echoing the limit it used.
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), this.pageCap);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const page = entries.slice(offset, offset + limit);
      return ['/oncalls', 200, { oncalls: page, limit, offset, more: offset + limit < entries.length, total: null }];
    }
    if (parts[0] === 'incidents' && parts.length === 2) {
      const incident = this.incidents.get(decodeURIComponent(parts[1]!));
      if (!incident) return ['/incidents/{id}', 404, error(404, 'Not Found', 2100)];
      return ['/incidents/{id}', 200, {
        incident: {
          id: incident.id, type: 'incident', summary: `[#1] ${incident.title}`, title: incident.title, incident_number: 1, status: incident.status,
          created_at: this.now().toISOString(), urgency: 'high', self: `https://api.pagerduty.com/incidents/${incident.id}`, html_url: `https://example.pagerduty.com/incidents/${incident.id}`,
        },
      }];
    }
    return [null, 404, error(404, 'Not Found', 2100)];
  }
}

export class OpsgenieStandIn extends StandIn {
  static async start(now: () => Date): Promise<OpsgenieStandIn> {
    const standIn = new OpsgenieStandIn(now, checkOpsgenieAnswer);
    await standIn.listen();
    return standIn;
  }

  private base() {
    return { took: 0.01, requestId: `req-${Math.random().toString(16).slice(2)}` };
  }

  protected answer(req: IncomingMessage, url: URL): [string | null, number, unknown] {
    if (req.headers.authorization !== `GenieKey ${OPSGENIE_KEY}`) return [null, 401, { message: 'Could not authenticate', ...this.base() }];
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v2' || parts[1] !== 'schedules' || parts.length < 3) return [null, 404, { message: 'Not found', ...this.base() }];
    const id = decodeURIComponent(parts[2]!);
    const schedule = this.schedules.get(id);
    const template = parts.length === 3 ? '/v2/schedules/{identifier}' : `/v2/schedules/{identifier}/${parts[3]}`;
    if (!schedule) return [template, 404, { message: `No schedule exists with identifier [${id}]`, ...this.base() }];
    const parent = { id: schedule.id, name: schedule.name, enabled: true };
    const who = (userId: string) => ({ id: userId, name: this.people.get(userId)!.email, type: 'user' });
    const date = url.searchParams.get('date') ?? this.now().toISOString();
    if (parts.length === 3) {
      return [template, 200, { data: { id: schedule.id, name: schedule.name, description: '', timezone: 'Etc/UTC', enabled: true, rotations: [] }, ...this.base() }];
    }
    if (parts[3] === 'on-calls') {
      const at = new Date(date).toISOString();
      const onCall = finalTimeline(schedule).filter((s) => s.start <= at && at < s.end);
      return [template, 200, { data: { _parent: parent, onCallParticipants: onCall.map((s) => who(s.userId)) }, ...this.base() }];
    }
    if (parts[3] === 'timeline') {
      const start = new Date(date);
      const weeks = Number(url.searchParams.get('interval') ?? 1) * (url.searchParams.get('intervalUnit') === 'days' ? 1 / 7 : 1);
      const end = new Date(start.getTime() + weeks * 7 * 86_400_000);
      // Periods are cut to the window, as Opsgenie's timeline is.
      const spans = this.overlapping(schedule, start.toISOString(), end.toISOString()).filter((s) => s.start < end.toISOString());
      const period = (s: Span) => ({
        startDate: s.start < start.toISOString() ? start.toISOString() : s.start,
        endDate: s.end > end.toISOString() ? end.toISOString() : s.end,
        type: schedule.overrides.some((o) => o.userId === s.userId && o.start <= s.start && s.end <= o.end) ? 'override' : 'default',
        recipient: who(s.userId),
      });
      const rotations = [...new Set(spans.map((s) => s.rotation ?? 1))].map((n) => ({
        id: `${schedule.id}-r${n}`, name: `Rotation ${n}`, order: n, periods: spans.filter((s) => (s.rotation ?? 1) === n).map(period),
      }));
      return [template, 200, {
        data: {
          _parent: parent, startDate: start.toISOString(), endDate: end.toISOString(),
          finalTimeline: { rotations },
        },
        expandable: ['base', 'forwarding', 'override'], ...this.base(),
      }];
    }
    return [null, 404, { message: 'Not found', ...this.base() }];
  }
}
