// An app's connector on its page (admins): set up (secrets shown masked), test, sync now, what the last
// sync found wrong, remote users no Gatehouse user matches, changes not yet carried (retry), removal.
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { all, ApiError, del, get, post, put, type Schema } from '../api.ts';
import { inWords, Pending, Problem, propagationWords, useAction, useConfirm, useLoad, when } from '../ui.tsx';

type Connector = Schema<'Connector'>;
type DriftPolicy = Connector['drift_policy'];
type ConnectorKind = Schema<'ConnectorType'>;

let kinds: Promise<ConnectorKind[]> | undefined;

/** The kinds of connector as their adapters declare them (GET /v1/connector-types), asked once per page load. */
export function connectorKinds(): Promise<ConnectorKind[]> {
  kinds ??= get('/connector-types').then((list) => list.results, (err: unknown) => {
    kinds = undefined;
    throw err;
  });
  return kinds;
}

/** The kind of connector apps of `appType` have (docs/connectors.md), if any. */
export const kindOfApp = (list: ConnectorKind[], appType: string): ConnectorKind | undefined => list.find((kind) => kind.app_type === appType);

const DRIFT: [DriftPolicy, string][] = [
  ['REPORT', 'Report it as a sync error'],
  ['IMPORT', 'Take it into Gatehouse'],
  ['REMOVE', 'Remove it from the system'],
];

/** The connector, or null when the app has none (404). */
const connectorOf = (appId: string) =>
  get('/apps/{app_id}/connector', { path: { app_id: appId } }).catch((err: unknown) => (err instanceof ApiError && err.status === 404 ? null : Promise.reject(err)));

/** A configuration field's value as the connector shows it (secrets masked), '' when it has none. */
const fieldOf = (connector: Connector | null, name: string): string => {
  const value = (connector as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : '';
};

/** The form of the connector's kind, drawn from its configuration's fields: a secret is shown masked, and sent back so it is kept. */
function ConnectorForm(props: { app: Schema<'App'>; kind: ConnectorKind; connector: Connector | null; onSaved: () => void; onCancel?: () => void }) {
  const { app, kind, connector } = props;
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(kind.configuration.map((field) => [field.name, fieldOf(connector, field.name)])));
  const [timeout, setTimeoutMs] = useState(connector?.timeout_ms ?? 10000);
  const [drift, setDrift] = useState<DriftPolicy>(connector?.drift_policy ?? 'REPORT');
  const action = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    // A whole secret is sent as typed; other values without the spaces around them.
    const fields = Object.fromEntries(kind.configuration.map((field) => [field.name, field.secret === 'secret' ? values[field.name] : values[field.name]?.trim()]));
    const body = { ...fields, timeout_ms: timeout, drift_policy: drift } as { timeout_ms: number; drift_policy: DriftPolicy };
    if (await action.run(() => put('/apps/{app_id}/connector', { path: { app_id: app.app_id }, body }))) props.onSaved();
  };
  return (
    <form onSubmit={save}>
      <h3>{connector ? 'Change the connector' : 'Set up the connector'}</h3>
      {kind.configuration.map((field) => {
        const id = `connector-${field.name}`;
        const kept = connector && field.secret && (field.secret === 'secret' ? ' It is shown masked; leave it so to keep it.' : ' Its password is shown masked; leave it so to keep it.');
        const common = {
          id, required: field.required, spellcheck: false, 'aria-describedby': `${id}-hint`, value: values[field.name] ?? '',
          onInput: (e: { currentTarget: HTMLInputElement }) => {
            const value = e.currentTarget.value;
            setValues((had) => ({ ...had, [field.name]: value }));
          },
        };
        return (
          <div class="field" key={field.name}><label for={id}>{field.title}</label>
            {field.secret === 'secret' ? <input type="password" autocomplete="new-password" {...common} /> : <input type="text" autocomplete="off" {...common} />}
            <p class="hint" id={`${id}-hint`}>{field.description}{kept}</p>
          </div>
        );
      })}
      <div class="field"><label for="connector-drift">Access found there that Gatehouse did not grant</label>
        <select id="connector-drift" value={drift} onChange={(e) => setDrift(e.currentTarget.value as DriftPolicy)}>
          {DRIFT.map(([value, words]) => <option key={value} value={value}>{words}</option>)}
        </select>
      </div>
      <div class="field"><label for="connector-timeout">Wait for an answer at most (milliseconds)</label>
        <input id="connector-timeout" type="number" min={100} max={300000} required value={timeout} onInput={(e) => setTimeoutMs(Number(e.currentTarget.value))} />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>{connector ? 'Save the connector' : 'Set up the connector'}</button>
        {props.onCancel && <button type="button" onClick={props.onCancel}>Cancel</button>}
      </div>
      <Problem message={action.error} />
    </form>
  );
}

/** What a sync did, in a sentence or two. */
function syncWords(result: Schema<'ConnectorSyncResult'>): string {
  const parts = [
    `${result.users} remote user${result.users === 1 ? '' : 's'} read, ${result.users_matched} matched`,
    `${result.resources_created} resource${result.resources_created === 1 ? '' : 's'} and ${result.groups_created} group${result.groups_created === 1 ? '' : 's'} added`,
    `${result.remote_access} access entr${result.remote_access === 1 ? 'y' : 'ies'} compared`,
    result.drift_found > 0 && `${result.drift_found} not granted by Gatehouse (${result.drift_imported} taken in, ${result.drift_removed} removed)`,
    result.pushed_again > 0 && `${result.pushed_again} missing there, sent again`,
  ].filter(Boolean);
  const outcome = result.truncated
    ? `The sync stopped before the end (${result.error ?? 'a bound was reached'}): what it read is written`
    : result.ok ? 'Synced' : `The sync failed: ${result.error ?? 'no reason given'}`;
  return `${outcome}. ${parts.join('; ')}.`;
}

/** `onSynced`: a sync may have added resources and groups the page around it lists. */
export function ConnectorPanel(props: { app: Schema<'App'>; kind: ConnectorKind | undefined; onSynced: () => void }) {
  const { app, kind } = props;
  const appId = app.app_id;
  const loaded = useLoad(async () => {
    const connector = await connectorOf(appId);
    if (!connector) return { connector, errors: [], propagations: [] };
    const [errors, propagations] = await Promise.all([
      get('/sync_errors', { query: { app_id: appId } }),
      all('/propagations', { query: { app_id: appId } }, 1000),
    ]);
    return { connector, errors: errors.flatMap((list) => list.sync_errors), propagations };
    // Changes on their way to the system: the panel looks again by itself until they are carried (or given up on).
  }, [appId], (data) => data.propagations.every((p) => p.state === 'FAILED'));
  const [editing, setEditing] = useState(false);
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  const action = useAction();
  const confirm = useConfirm();
  const test = async () => {
    setOutcome(undefined);
    await action.run(async () => {
      const result = await post('/apps/{app_id}/connector/test', { path: { app_id: appId } });
      setOutcome(result.ok ? 'The connector answered: it works.' : `The connector did not work: ${result.error ?? inWords(result.status)}.`);
    });
  };
  const sync = async () => {
    setOutcome(undefined);
    if (await action.run(async () => setOutcome(syncWords(await post('/apps/{app_id}/connector/sync', { path: { app_id: appId } }))))) {
      loaded.reload();
      props.onSynced();
    }
  };
  const retry = async () => {
    setOutcome(undefined);
    if (await action.run(async () => {
      const result = await post('/apps/{app_id}/connector/retry', { path: { app_id: appId } });
      setOutcome(`${result.requeued} change${result.requeued === 1 ? '' : 's'} will be tried again now.`);
    })) loaded.reload();
  };
  const remove = (pending: number) => confirm.ask({
    title: `Remove the connector of ${app.name}?`,
    body: (
      <ul>
        <li>Gatehouse stops carrying access changes of {app.name} to the system, and stops syncing from it.</li>
        {pending > 0 && <li>{pending} change{pending === 1 ? '' : 's'} not yet carried will not be sent.</li>}
        <li>Access the system holds now stays there: remove it there if it should end.</li>
        <li>Its settings and secret are forgotten; setting it up again needs them.</li>
      </ul>
    ),
    confirm: 'Remove the connector',
    action: () => del('/apps/{app_id}/connector', { path: { app_id: appId } }),
    done: () => {
      setOutcome('The connector was removed.');
      loaded.reload();
    },
  });
  if (!kind) {
    return (
      <section aria-labelledby="connector">
        <h2 id="connector">Connector</h2>
        <p>An app of this kind has no connector: its access lives in Gatehouse, in effect the moment it is written. Choose a kind that has one (PostgreSQL, Opal-protocol connector) to connect a system.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="connector">
      <h2 id="connector">Connector</h2>
      <Pending loaded={loaded}>{({ connector, errors, propagations }) => (
        <>
          {outcome && <p class="notice" role="status">{outcome}</p>}
          {!connector ? (
            <>
              <p>{app.name} has no connector yet: access granted here is not carried anywhere.</p>
              <ConnectorForm app={app} kind={kind} connector={null} onSaved={() => { setOutcome('The connector is set up. Test it, then sync to read what the system holds.'); loaded.reload(); }} />
            </>
          ) : editing ? (
            <ConnectorForm app={app} kind={kind} connector={connector} onCancel={() => setEditing(false)} onSaved={() => { setEditing(false); setOutcome('Saved.'); loaded.reload(); }} />
          ) : (
            <>
              <dl class="facts">
                <dt>Kind</dt><dd>{kind.name}</dd>
                {kind.configuration.map((field) => fieldOf(connector, field.name) && (
                  <Fragment key={field.name}><dt>{field.title}</dt><dd><code class="wrap">{fieldOf(connector, field.name)}</code></dd></Fragment>
                ))}
                <dt>Access not granted here</dt><dd>{DRIFT.find(([d]) => d === connector.drift_policy)?.[1] ?? connector.drift_policy}</dd>
                <dt>Last sync</dt><dd>{when(connector.last_sync_at)}</dd>
                <dt>Last successful sync</dt><dd>{when(connector.last_successful_sync)}</dd>
              </dl>
              <div class="actions">
                <button type="button" onClick={test} disabled={action.busy}>Test the connector</button>
                <button type="button" class="primary" onClick={sync} disabled={action.busy}>{action.busy ? 'Working…' : 'Sync now'}</button>
                <button type="button" onClick={() => setEditing(true)} disabled={action.busy}>Change the connector</button>
                <button type="button" class="danger" onClick={() => remove(propagations.filter((p) => p.state === 'PENDING').length)} disabled={action.busy}>Remove the connector</button>
              </div>
            </>
          )}
          <Problem message={action.error} />
          {connector && !editing && (
            <>
              <SyncErrors errors={errors} />
              <UnmatchedUsers connector={connector} onLinked={(words) => {
                setOutcome(words);
                loaded.reload();
              }} />
              <Propagations propagations={propagations} busy={action.busy} onRetry={retry} />
            </>
          )}
          {confirm.dialog}
        </>
      )}</Pending>
    </section>
  );
}

function SyncErrors(props: { errors: Schema<'SyncError'>[] }) {
  return (
    <>
      <h3>What the last sync found wrong</h3>
      {props.errors.length === 0 ? <p>Nothing: the system and Gatehouse agree, or no sync has run yet.</p> : (
        <ul class="plain">{props.errors.map((e, i) => (
          <li key={i}><span class="wrap">{e.error_message}</span> <small>(since {when(e.first_seen)})</small></li>
        ))}</ul>
      )}
    </>
  );
}

function UnmatchedUsers(props: { connector: Connector; onLinked: (words: string) => void }) {
  const { app_id: appId, unmatched_remote_users_count: count } = props.connector;
  const [rows, setRows] = useState<Schema<'UnmatchedRemoteUser'>[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const action = useAction();
  // A page at a time (the list is paged: an app may have thousands of accounts), more on request.
  const more = (cursor?: string) => action.run(async () => {
    const page = await get('/apps/{app_id}/connector/unmatched-users', { path: { app_id: appId }, query: { page_size: 100, cursor } });
    setRows((had) => (cursor ? [...had, ...page.results] : page.results));
    setNext(page.next ?? null);
  });
  useEffect(() => {
    if (count > 0) void more();
  }, [appId, count, props.connector.last_sync_at]);
  return (
    <>
      <h3>Accounts there that match nobody here</h3>
      {count === 0 ? <p>Every account the last sync read belongs to someone in Gatehouse.</p> : (
        <>
          <p class="hint">{count} account{count === 1 ? '' : 's'}: no Gatehouse person has {count === 1 ? 'its' : 'their'} email, so what {count === 1 ? 'it holds' : 'they hold'} there is shown on the items' pages as held outside Gatehouse. Add the people (or correct their email) and sync again, or link an account to its person below.</p>
          <ul class="plain">{rows.map((u) => (
            <li key={u.remote_user_id}>{u.email ? <><span class="wrap">{u.email}</span> <small>(account <code class="wrap">{u.remote_user_id}</code>)</small></> : <>account <code class="wrap">{u.remote_user_id}</code> <small>(no email)</small></>}</li>
          ))}</ul>
          {next && <button type="button" disabled={action.busy} onClick={() => void more(next)}>Show more accounts</button>}
          <Problem message={action.error} />
          {rows.length > 0 && <LinkAccount appId={appId} accounts={rows} onLinked={props.onLinked} />}
        </>
      )}
    </>
  );
}

/**
 * An admin says whose an account is (PUT …/connector/user-links): the only way a PostgreSQL login role
 * becomes a person's, since Gatehouse never guesses by name (docs/connectors.md).
 */
function LinkAccount(props: { appId: string; accounts: Schema<'UnmatchedRemoteUser'>[]; onLinked: (words: string) => void }) {
  const [account, setAccount] = useState(props.accounts[0]?.remote_user_id ?? '');
  const [email, setEmail] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    let words = '';
    if (await action.run(async () => {
      const person = await get('/user', { query: { email: email.trim() } });
      await put('/apps/{app_id}/connector/user-links', { path: { app_id: props.appId }, body: { remote_user_id: account, user_id: person.user_id } });
      words = `${account} is now ${person.email}'s account.`;
    })) props.onLinked(words);
  };
  return (
    <form onSubmit={submit}>
      <h4>Link an account to a person</h4>
      <p class="hint">Gatehouse never decides by its name whose an account is: say it here. Accounts with privileges Gatehouse does not grant are refused.</p>
      <div class="field"><label for="link-account">Account</label>
        <select id="link-account" value={account} onChange={(e) => setAccount(e.currentTarget.value)}>
          {props.accounts.map((a) => <option key={a.remote_user_id} value={a.remote_user_id}>{a.remote_user_id}{a.email ? ` (${a.email})` : ''}</option>)}
        </select>
      </div>
      <div class="field"><label for="link-person">Person's email</label>
        <input id="link-person" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={action.busy}>Link the account</button>
      <Problem message={action.error} />
    </form>
  );
}

function Propagations(props: { propagations: Schema<'Propagation'>[]; busy: boolean; onRetry: () => void }) {
  const { propagations } = props;
  const failed = propagations.filter((p) => p.state === 'FAILED').length;
  return (
    <>
      <h3>Changes not yet carried</h3>
      {propagations.length === 0 ? <p>Every access change has reached the system.</p> : (
        <div class="table-wrap">
          <table class="stack">
            <caption>Access changes on their way to the system, or given up</caption>
            <thead><tr><th scope="col">Who</th><th scope="col">Change</th><th scope="col">Where it stands</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Next attempt</th></tr></thead>
            <tbody>{propagations.map((p) => (
              <tr key={`${p.edge_kind}${p.principal_id}${p.item_id}${p.access_level_remote_id}`}>
                <td data-label="Who">{p.principal_name ?? p.principal_id}</td>
                <td data-label="Change">{p.desired === 'PRESENT' ? 'grant' : 'removal'}</td>
                <td data-label="Where it stands">{p.state === 'FAILED' ? 'given up' : propagationWords(p.status)}</td>
                <td data-label="Attempts">{p.attempts}</td>
                <td data-label="Last error"><span class="wrap">{p.last_error ?? '—'}</span></td>
                <td data-label="Next attempt">{p.next_attempt_at ? when(p.next_attempt_at) : '—'}</td>
              </tr>
            ))}</tbody>
          </table>
        </div>
      )}
      {failed > 0 && <button type="button" onClick={props.onRetry} disabled={props.busy}>Retry the {failed} given-up change{failed === 1 ? '' : 's'}</button>}
    </>
  );
}

/**
 * On an item's page (admins, an app with a connector): what the last sync found held in the system by
 * accounts no Gatehouse person matches — access outside Gatehouse, shown as such.
 */
export function HeldOutside(props: { kind: 'resource' | 'group'; id: string; name: string; levels: Schema<'ResourceAccessLevel'>[] }) {
  const { kind, id } = props;
  const loaded = useLoad(() => (kind === 'resource'
    ? all('/resources/{resource_id}/unmatched-remote-users', { path: { resource_id: id } }, 1000)
    : all('/groups/{group_id}/unmatched-remote-users', { path: { group_id: id } }, 1000)), [kind, id]);
  const level = (remoteId: string) => props.levels.find((l) => l.access_level_remote_id === remoteId)?.access_level_name || (remoteId || (kind === 'group' ? 'Member' : 'Default'));
  return (
    <Pending loaded={loaded}>{(rows) => rows.length === 0 ? null : (
      <section aria-labelledby="held-outside">
        <h2 id="held-outside">Held outside Gatehouse</h2>
        <p>The last sync found {rows.length === 1 ? 'this account' : `these ${rows.length} accounts`} holding {props.name} in the system. No Gatehouse person has {rows.length === 1 ? 'its email' : 'their emails'}, so Gatehouse did not grant it and cannot review or revoke it: add the person (or end the access there), then sync again.</p>
        <div class="table-wrap">
          <table class="stack">
            <caption>Accounts holding {props.name} that match nobody in Gatehouse</caption>
            <thead><tr><th scope="col">Account</th><th scope="col">Email</th><th scope="col">Level</th><th scope="col">Found</th></tr></thead>
            <tbody>{rows.map((r) => (
              <tr key={`${r.remote_user_id}\n${r.access_level_remote_id}`}>
                <td data-label="Account"><code class="wrap">{r.remote_user_id}</code></td>
                <td data-label="Email"><span class="wrap">{r.email || '—'}</span></td>
                <td data-label="Level">{level(r.access_level_remote_id)}</td>
                <td data-label="Found">{when(r.found_at)}</td>
              </tr>
            ))}</tbody>
          </table>
        </div>
      </section>
    )}</Pending>
  );
}
