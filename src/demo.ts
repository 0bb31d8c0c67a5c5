// `gatehouse serve --demo`: an example organisation to show the console in a minute, offline. Seeded
// once, on a database file of its own, through the running service's own /v1 (so every write passes the
// API's checks and records its event, as a person's would), with tokens made for the seeding and
// revoked when it is done; then a sign-in link each for a requester, a reviewer and an admin.
import type { AppContext } from './context.ts';
import { ConfigError, type Config } from './config.ts';
import { demoSeededAt, markDemo } from './db/meta.ts';
import { actorFor, issueToken, revokeToken } from './modules/tokens/service.ts';
import { issueLoginLink } from './modules/web-sessions/service.ts';

/** The file `serve --demo` runs on unless --db or GATEHOUSE_DB names another. */
export const DEMO_DB_FILE = 'gatehouse-demo.db';

/** The people of the example organisation: who asks, who reviews, who administers. */
const PEOPLE = [
  { key: 'priya', email: 'priya@demo.example', full_name: 'Priya Patel', position: 'Backend engineer', manager: 'ravi' },
  { key: 'ravi', email: 'ravi@demo.example', full_name: 'Ravi Kumar', position: 'Platform lead' },
  { key: 'sam', email: 'sam@demo.example', full_name: 'Sam Lee', position: 'Data analyst', manager: 'jo' },
  { key: 'jo', email: 'jo@demo.example', full_name: 'Jo Chen', position: 'Data lead' },
  { key: 'morgan', email: 'morgan@demo.example', full_name: 'Morgan Diaz', position: 'Security engineer' },
  { key: 'alex', email: 'alex@demo.example', full_name: 'Alex Romero', position: 'Support engineer', manager: 'ravi' },
] as const;
type PersonKey = (typeof PEOPLE)[number]['key'];

export interface DemoLinks {
  requester: { email: string; url: string };
  reviewer: { email: string; url: string };
  admin: { email: string; url: string };
}

/**
 * The configuration `serve --demo` runs with: its own file unless one is named, and nothing that
 * reaches the network (email, Slack, single sign-on, replication off), so it runs on a laptop offline.
 */
export function demoConfig(config: Config, fileNamed: boolean): Config {
  return {
    ...config,
    dbFile: fileNamed ? config.dbFile : DEMO_DB_FILE,
    smtpUrl: undefined,
    slackBotToken: undefined,
    oidcIssuer: undefined,
    litestreamConfig: undefined,
  };
}

/**
 * Refuses (ConfigError) to seed a file that already holds a Gatehouse that is not a demo: `--demo` never
 * writes its example people into real data. Call before the admin is bootstrapped; true when the
 * file is new (so it is to be seeded).
 */
export function checkDemoFile(ctx: AppContext): boolean {
  if (demoSeededAt(ctx.db) !== undefined) return false;
  if (ctx.stores.users.count() > 0) {
    throw new ConfigError(`${ctx.config.dbFile} holds a Gatehouse that is not a demo; --demo runs on a file of its own (without --db: ${DEMO_DB_FILE})`);
  }
  return true;
}

/** Calls the running service's /v1 with `token`; throws naming the call when it is refused. */
function caller(apiUrl: string) {
  return async <T = Record<string, unknown>>(token: string, method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`seeding the demo: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
}

/**
 * Seeds the example organisation through /v1 at `apiUrl` (the running service): people and managers,
 * teams, two apps with resources and a group, reviewer stages, held access, pending requests, one
 * approved and one denied, and an access review in progress. Marks the file as a demo.
 */
export async function seedDemo(ctx: AppContext, apiUrl: string): Promise<void> {
  const admin = ctx.stores.users.getByEmail(ctx.config.adminEmail);
  if (!admin) throw new Error('seeding the demo needs the bootstrapped admin');
  const call = caller(apiUrl);
  const adminActor = { ...actorFor(admin), role: 'ADMIN' as const };
  const seeding: string[] = [];
  const tokenFor = (userId: string) => {
    const issued = issueToken(ctx, adminActor, { userId, label: 'demo seeding', accessLevel: 'FULL_ACCESS' });
    seeding.push(issued.token.token_id);
    return issued.secret;
  };
  const root = tokenFor(admin.user_id);
  try {
    const ids = {} as Record<PersonKey, string>;
    const tokens = {} as Record<PersonKey, string>;
    for (const person of PEOPLE) {
      const manager = 'manager' in person ? ids[person.manager] : undefined;
      const user = await call<{ user_id: string }>(root, 'POST', '/users', {
        email: person.email, full_name: person.full_name, position: person.position, ...(manager && { manager_user_id: manager }),
      });
      ids[person.key] = user.user_id;
      tokens[person.key] = tokenFor(user.user_id);
    }
    const team = async (name: string, description: string, members: PersonKey[]) =>
      (await call<{ owner_id: string }>(root, 'POST', '/owners', { name, description, user_ids: members.map((m) => ids[m]) })).owner_id;
    // The admin is on the platform team, so signing in as the admin shows requests to review too (issue 41.8).
    const platform = (await call<{ owner_id: string }>(root, 'POST', '/owners', {
      name: 'Platform team', description: 'Runs the production databases and the cloud accounts.', user_ids: [ids.ravi, ids.morgan, admin.user_id],
    })).owner_id;
    const data = await team('Data team', 'Owns the warehouse and the dashboards.', ['jo']);
    const security = await team('Security', 'Reviews access to anything holding customer data.', ['morgan']);

    const app = async (name: string, description: string, owner: string) =>
      (await call<{ app_id: string }>(root, 'POST', '/apps', { name, description, app_type: 'CUSTOM', admin_owner_id: owner })).app_id;
    const databases = await app('Production databases', 'PostgreSQL clusters behind the shop.', platform);
    const warehouse = await app('Analytics warehouse', 'The data warehouse and its dashboards.', data);

    const stages = (...owners: string[][]) => owners.map((ownerIds, i) => ({ stage: i + 1, operator: 'OR', require_manager_approval: false, owner_ids: ownerIds }));
    const configuration = (reviewers: ReturnType<typeof stages>, max = 7 * 24 * 60) => [{
      allow_requests: true, auto_approval: false, require_mfa_to_request: false, require_support_ticket: false, priority: 0,
      max_duration_minutes: max, recommended_duration_minutes: 24 * 60, reviewer_stages: reviewers,
    }];
    const resource = async (name: string, description: string, appId: string, owner: string, reviewers: ReturnType<typeof stages>) =>
      (await call<{ resource_id: string }>(root, 'POST', '/resources', {
        name, description, resource_type: 'CUSTOM', app_id: appId, admin_owner_id: owner, request_configurations: configuration(reviewers),
      })).resource_id;
    const replica = await resource('orders read replica', 'Read-only access to the orders database.', databases, platform, stages([platform]));
    const primary = await resource('orders primary (write)', 'Writes to the orders database: two teams agree.', databases, platform, stages([platform], [security]));
    const dashboards = await resource('Revenue dashboards', 'The finance dashboards.', warehouse, data, stages([data]));
    const raw = await resource('Raw events', 'Unfiltered event data, customer ids included.', warehouse, data, stages([data], [security]));
    const onCall = (await call<{ group_id: string }>(root, 'POST', '/groups', {
      name: 'On-call engineers', description: 'Paged at night; holds break-glass access.', group_type: 'OPAL_GROUP', app_id: databases, admin_owner_id: platform,
      request_configurations: configuration(stages([platform]), 30 * 24 * 60),
    })).group_id;

    // Access people already hold.
    // 0 is "no end" here, as the reference has it.
    const hold = (path: string, minutes = 0) => call(root, 'POST', path, { duration_minutes: minutes });
    await hold(`/resources/${replica}/users/${ids.ravi}`);
    await hold(`/resources/${replica}/users/${ids.alex}`, 30 * 24 * 60);
    await hold(`/resources/${dashboards}/users/${ids.sam}`);
    await hold(`/resources/${dashboards}/users/${ids.jo}`);
    await hold(`/resources/${raw}/users/${ids.jo}`);
    await hold(`/groups/${onCall}/users/${ids.ravi}`);
    await hold(`/groups/${onCall}/users/${ids.morgan}`);

    // A little history: one request approved, one denied.
    const ask = async (who: PersonKey, reason: string, resources: string[], groups: string[] = [], minutes = 24 * 60) =>
      (await call<{ id: string }>(tokens[who], 'POST', '/requests', {
        resources: resources.map((id) => ({ id })), groups: groups.map((id) => ({ id })), reason, duration_minutes: minutes,
      })).id;
    const history = await ask('alex', 'Investigating a stuck refund (ticket 4711).', [], [onCall], 8 * 60);
    await call(tokens.ravi, 'POST', `/requests/${history}/approve`, { level: 'REGULAR', comment: 'For the night of the refund incident.' });
    const denied = await ask('sam', 'Want to look at raw events for a side project.', [raw]);
    await call(tokens.jo, 'POST', `/requests/${denied}/deny`, { comment: 'Use the revenue dashboards; raw events hold customer ids.' });

    // Waiting now: for Ravi's team, and a two-stage one at its first stage.
    await ask('priya', 'Debugging slow order queries in production.', [replica]);
    await ask('priya', 'Backfilling the orders table after the migration.', [primary], [], 4 * 60);
    await ask('sam', 'Building the churn dashboard.', [raw], [], 3 * 24 * 60);

    // An access review in progress, reviewed by the owning teams, due in two weeks. Every member of a team
    // is asked (_ALL): round-robin would hand a row to the admin or to Ravi by the order of their random ids,
    // now that the admin is on the platform team, and the reviewer's link must find the review waiting.
    const deadline = new Date(ctx.clock.now().getTime() + 14 * 24 * 3_600_000).toISOString();
    await call(root, 'POST', '/uar', {
      name: 'Quarterly production access review', reviewer_assignment_policy: 'BY_OWNING_TEAM_ADMIN_ALL', send_reviewer_assignment_notification: false,
      deadline, time_zone: 'UTC', self_review_allowed: false, uar_scope: { apps: [databases] },
    });
    markDemo(ctx.db, ctx.clock.now());
  } finally {
    for (const tokenId of seeding.reverse()) revokeToken(ctx, adminActor, tokenId);
  }
}

/** A sign-in link each for the demo's requester (Priya), reviewer (Ravi) and admin, printed at start. */
export function demoLinks(ctx: AppContext): DemoLinks {
  const link = (email: string) => {
    const user = ctx.stores.users.getByEmail(email);
    if (!user) throw new Error(`the demo has no ${email}`);
    return { email, url: issueLoginLink(ctx, user).url };
  };
  return { requester: link('priya@demo.example'), reviewer: link('ravi@demo.example'), admin: link(ctx.config.adminEmail) };
}

/** What `serve --demo` prints once it listens. */
export function demoBanner(links: DemoLinks, minutes: number, dbFile: string): string {
  return [
    `Gatehouse demo on ${dbFile}: an example organisation (nothing here reaches the network).`,
    `Sign in (each link works once, within ${minutes} minutes; \`gatehouse login-link --db ${dbFile} --email EMAIL\` makes more):`,
    '',
    `  requester  Priya Patel  ${links.requester.url}`,
    `  reviewer   Ravi Kumar   ${links.reviewer.url}`,
    `  admin      ${links.admin.email.padEnd(11)} ${links.admin.url}`,
    '',
  ].join('\n');
}
