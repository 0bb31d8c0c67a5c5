// Settings (admins): set up email, Slack, single sign-on, the public address, the on-call providers and the
// notification timings here (PATCH /v1/settings: stored, secrets encrypted, in effect at once), each group
// with its Send a test / Check button; what this Gatehouse runs with (GET /v1/settings: every setting, where
// it comes from, secrets hidden by the server) and what `gatehouse check` says (GET /v1/settings/check).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, get, patch, post, type Me, type Schema } from '../api.ts';
import { AdminOnly, Link, Page, Pending, Problem, useAction, useConfirm, useLoad } from '../ui.tsx';

type Settings = Schema<'GatehouseSettings'>;
type Shown = Settings['settings'][number];
type TestResult = Schema<'SettingsTestResult'>;

const yes = (on: boolean) => (on ? 'set up' : 'not set up');
const SOURCE_WORDS: Record<Shown['source'], string> = { environment: 'environment variable', stored: 'Settings page', default: 'default' };

/** Each group's button: what it does, and the call behind it (groups without one have none). */
const TESTS: Record<string, { label: string; run: () => Promise<TestResult> }> = {
  email: { label: 'Send a test email to yourself', run: () => post('/settings/email/test') },
  slack: { label: 'Send a test Slack message to yourself', run: () => post('/settings/slack/test', { body: {} }) },
  single_sign_on: { label: 'Check single sign-on', run: () => post('/settings/single-sign-on/check') },
  on_call: { label: 'Check the on-call providers', run: () => post('/settings/on-call/check') },
};

/** What a group needs said before its fields: single sign-on's provider wants the redirect URI before it gives a client. */
const GROUP_INTROS: Record<string, (s: Settings) => ComponentChildren> = {
  single_sign_on: (s) => (
    <p class="hint">At your OpenID provider, register Gatehouse as a web client with the redirect URI{' '}
      <code class="wrap">{`${s.public_url.replace(/\/+$/, '')}/console/oidc/callback`}</code>, then fill in what it gives you below.</p>
  ),
};

/** A setting's Markdown-ish words (from SETTINGS) as a sentence for the page: no backticks, a capital first. */
const sentence = (text: string) => {
  const plain = text.replaceAll('`', '');
  return plain.charAt(0).toUpperCase() + plain.slice(1);
};

/** The words of a closed list of values ("`off`, `on`"), for a select; undefined for free text. */
function choicesOf(setting: Shown): string[] | undefined {
  const accepts = setting.accepts ?? '';
  return /^`[^`]+`(, `[^`]+`)+$/.test(accepts) ? [...accepts.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) : undefined;
}

export function Settings(props: { me: Me }) {
  const loaded = useLoad(() => get('/settings'), []);
  // Its own load: the integrity check reads the whole file, and the rest of the page need not wait for it.
  const check = useLoad(() => get('/settings/check'), []);
  // A save answers the settings now in effect: shown at once (the group's form made again from them), and the group says so.
  const [fresh, setFresh] = useState<{ settings: Settings; group: string } | undefined>(undefined);
  const confirm = useConfirm();
  return (
    <Page title="Settings">
      <AdminOnly me={props.me}>
        <p>Also here: <Link href="/console/event-streams">Event streams</Link> · <Link href="/console/access-rules">Access rules</Link></p>
        {confirm.dialog}
        <Pending loaded={loaded}>{(first) => { const s = fresh?.settings ?? first; return (
          <>
            <dl class="facts">
              <dt>Version</dt><dd>Gatehouse {s.version}</dd>
              <dt>Database schema</dt><dd>version {s.schema_version}{s.schema_version === s.known_schema_version ? '' : ` (this build knows ${s.known_schema_version})`}</dd>
              <dt>Address</dt><dd class="wrap">{s.public_url}</dd>
              <dt>Email (SMTP)</dt><dd>{yes(s.integrations.email)}</dd>
              <dt>Slack</dt><dd>{yes(s.integrations.slack)}{s.integrations.slack && !s.integrations.slack_interactivity ? ' (buttons off: no signing secret)' : ''}</dd>
              <dt>Single sign-on</dt><dd>{yes(s.integrations.single_sign_on)}</dd>
              <dt>Replication</dt><dd>{s.integrations.replication ? 'Litestream (status below)' : 'not replicated'}</dd>
            </dl>
            {s.problems.length > 0 && (
              <div class="error" role="alert"><p>Stored settings not in effect:</p><ul>{s.problems.map((p) => <li key={p}>{p}</li>)}</ul></div>
            )}
            <p class="hint">
              What you set here is stored in the database and applies at once, without a restart. An environment variable, where one is set,
              wins over this page. Secrets are stored encrypted and never shown again; {s.secret_key.source === 'environment'
                ? 'their key is GATEHOUSE_SECRET_KEY: keep a copy of it apart from your backups.'
                : <>their key is the file <code class="wrap">{s.secret_key.file}</code>{s.secret_key.source === 'none' ? ' (made when you store the first secret)' : ''}: back it up apart from the database, or a restored backup has no secrets.</>}
            </p>
            {s.groups.map((group) => {
              const settings = s.settings.filter((setting) => setting.group === group.group);
              // Made again when what is in effect changes, so its fields start from that.
              const key = `${group.group}:${JSON.stringify(settings.map((setting) => [setting.source, setting.value, setting.is_set]))}`;
              return <GroupForm key={key} group={group} settings={settings} justSaved={fresh?.group === group.group} onSaved={(answer) => setFresh({ settings: answer, group: group.group })} confirm={confirm.ask}
                intro={GROUP_INTROS[group.group]?.(s)} />;
            })}
            <h2>Check</h2>
            <CheckResult loaded={check} />
            <h2>Every setting</h2>
            <p class="hint">Secrets are never shown. A setting without a group above is set only by its environment variable (or flag) when Gatehouse starts.</p>
            <div class="table-wrap">
              <table class="stack">
                <caption>Settings in effect</caption>
                <thead><tr><th scope="col">Variable</th><th scope="col">Value</th><th scope="col">From</th><th scope="col">Meaning</th></tr></thead>
                <tbody>{s.settings.map((setting) => (
                  <tr key={setting.name}>
                    <td data-label="Variable"><code class="wrap">{setting.name}</code></td>
                    <td data-label="Value">{setting.value === null ? <em>unset</em> : <code class="wrap">{setting.value}</code>}</td>
                    <td data-label="From">{SOURCE_WORDS[setting.source]}</td>
                    <td data-label="Meaning">{setting.description}</td>
                  </tr>
                ))}</tbody>
              </table>
            </div>
          </>
        ); }}</Pending>
      </AdminOnly>
    </Page>
  );
}

/**
 * A refused save's problems by setting name (the API names each `settings.NAME`: a value it cannot parse,
 * or an address the private-address policy refuses), and the sentence the form shows above them, each
 * problem under the field's label rather than its variable.
 */
function refusedFields(err: unknown, settings: Shown[]): { byName: Record<string, string>; words: string } | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const byName: Record<string, string> = {};
  for (const detail of err.details) {
    const name = /^settings\.(\w+)$/.exec(detail.path)?.[1];
    if (name) byName[name] = byName[name] ? `${byName[name]}; ${detail.message}` : detail.message;
  }
  const names = Object.keys(byName);
  if (names.length === 0) return undefined;
  const labelOf = (name: string) => settings.find((s) => s.name === name)?.label ?? name;
  return { byName, words: `Not saved: ${names.map((name) => `${labelOf(name)}: ${byName[name]}`).join('; ')}. Nothing was changed.` };
}

/** What a field starts with: a non-secret's value in effect (a URL's password masked); a secret's nothing (typing replaces it). */
const initial = (setting: Shown) => (setting.secret ? '' : setting.source === 'default' ? '' : setting.value ?? '');

/** One group of settings: its fields, Save, its test button and the result. */
function GroupForm(props: {
  group: Settings['groups'][number];
  settings: Shown[];
  /** This group was the last one saved (the form was made again since). */
  justSaved: boolean;
  /** With PATCH's answer: the settings in effect now. */
  onSaved: (answer: Settings) => void;
  confirm: ReturnType<typeof useConfirm>['ask'];
  /** Said before the group's fields. */
  intro?: ComponentChildren;
}) {
  const { group, settings } = props;
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(settings.map((s) => [s.name, initial(s)])));
  const save = useAction();
  const test = useAction();
  const [result, setResult] = useState<TestResult | undefined>(undefined);
  const [savedNow, setSavedNow] = useState(props.justSaved);
  // What the last refused save said of each field (by setting name), shown beside it.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const changes = Object.fromEntries(settings
    .filter((s) => s.source !== 'environment' && values[s.name] !== initial(s) && !(s.secret && values[s.name] === ''))
    .map((s) => [s.name, values[s.name]!.trim() === '' ? null : values[s.name]!]));
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult(undefined);
    if (Object.keys(changes).length === 0) {
      save.setError('Nothing changed.');
      return;
    }
    setFieldErrors({});
    let answer: Settings | undefined;
    const saved = await save.run(async () => {
      try {
        answer = await patch('/settings', { body: { settings: changes } });
      } catch (err) {
        const refused = refusedFields(err, settings);
        if (!refused) throw err;
        setFieldErrors(refused.byName);
        throw new Error(refused.words);
      }
    });
    if (saved) props.onSaved(answer!);
  };
  const runTest = TESTS[group.group];
  let removed: Settings | undefined;
  const id = (name: string) => `setting-${name}`;
  return (
    <section aria-labelledby={`group-${group.group}`}>
      <h2 id={`group-${group.group}`}>{group.title}</h2>
      {props.intro}
      <form onSubmit={submit}>
        {settings.map((setting) => {
          const fromEnvironment = setting.source === 'environment';
          const choices = choicesOf(setting);
          const hint = `${id(setting.name)}-hint`;
          const problem = fieldErrors[setting.name];
          const common = {
            id: id(setting.name),
            'aria-describedby': problem ? `${hint} ${id(setting.name)}-error` : hint,
            'aria-invalid': problem ? true : undefined,
            disabled: fromEnvironment,
          };
          return (
            <div class="field" key={setting.name}>
              <label for={id(setting.name)}>{setting.label ?? setting.name}</label>
              {choices ? (
                <select {...common} value={values[setting.name] || (setting.value ?? '')} onChange={(e) => setValues({ ...values, [setting.name]: e.currentTarget.value })}>
                  {choices.map((choice) => <option key={choice} value={choice}>{choice}</option>)}
                </select>
              ) : (
                <input
                  {...common}
                  // Preact types `type` per kind of input; one field here is either kind.
                  type={(setting.secret ? 'password' : 'text') as 'text'}
                  autocomplete={setting.secret ? 'new-password' : 'off'}
                  spellcheck={false}
                  value={fromEnvironment ? (setting.secret ? '' : setting.value ?? '') : values[setting.name]}
                  placeholder={setting.secret ? (setting.is_set ? 'set (type to replace it)' : 'not set') : setting.source === 'default' ? setting.value ?? '' : undefined}
                  onInput={(e) => setValues({ ...values, [setting.name]: e.currentTarget.value })}
                />
              )}
              {problem && <p class="error" id={`${id(setting.name)}-error`}>{setting.label ?? setting.name}: {problem}.</p>}
              <p id={hint} class="hint">
                {fromEnvironment ? <strong>Set by the environment variable {setting.name}, which wins over this page. </strong> : null}
                {sentence(setting.description)}{setting.accepts ? ` (${setting.accepts.replaceAll('`', '')})` : ''}. <code class="wrap">{setting.name}</code>
              </p>
              {setting.secret && setting.is_set && setting.source === 'stored' && (
                <p><button type="button" class="danger" onClick={() => props.confirm({
                  title: `Remove the stored ${setting.label ?? setting.name}?`,
                  body: <p>{group.title} stops using it at once.</p>,
                  confirm: `Remove ${setting.label ?? setting.name}`,
                  action: async () => (removed = await patch('/settings', { body: { settings: { [setting.name]: null } } })),
                  done: () => props.onSaved(removed!),
                })}>Remove {setting.label ?? setting.name}</button></p>
              )}
            </div>
          );
        })}
        <div class="actions">
          <button type="submit" class="primary" disabled={save.busy}>Save {group.title}</button>
          {runTest && (
            <button type="button" disabled={test.busy} onClick={() => {
              setSavedNow(false);
              void test.run(async () => setResult(await runTest.run()));
            }}>{runTest.label}</button>
          )}
        </div>
        <div aria-live="polite">
          {savedNow && !save.error && <p class="notice">Saved: in effect now.</p>}
          {test.busy && <p>Trying…</p>}
          {result && <p class={result.ok ? 'notice' : 'error'}>{result.ok ? 'It worked: ' : 'It did not work: '}{result.message}</p>}
        </div>
        <Problem message={save.error ?? test.error} />
      </form>
    </section>
  );
}

function CheckResult(props: { loaded: ReturnType<typeof useLoad<Awaited<ReturnType<typeof checkCall>>>> }) {
  const { loaded } = props;
  if (loaded.error) return <Problem message={loaded.error} />;
  if (!loaded.data) return <p aria-live="polite">Checking the database…</p>;
  const result = loaded.data;
  return (
    <div aria-live="polite">
      <p class={result.ok ? 'notice' : 'error'}>{result.ok ? 'OK: the database file is sound' : 'Problems found'} (what <code>gatehouse check</code> says).</p>
      {result.problems.length > 0 && <ul>{result.problems.map((p) => <li key={p}>{p}</li>)}</ul>}
      {result.replicas && result.replicas.length > 0 && (
        <ul>{result.replicas.map((r) => <li key={r.name}>{r.healthy ? 'Healthy' : 'Unhealthy'}: replica {r.summary}</li>)}</ul>
      )}
      <p><button type="button" onClick={loaded.reload}>Check again</button></p>
    </div>
  );
}

const checkCall = () => get('/settings/check');
