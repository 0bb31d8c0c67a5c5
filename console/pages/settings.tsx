// Settings (admins): what this Gatehouse runs with (GET /v1/settings: version, schema, integrations, every
// setting in effect, secrets hidden by the server) and what `gatehouse check` says (GET /v1/settings/check).
import { get, type Me } from '../api.ts';
import { AdminOnly, Link, Page, Pending, Problem, useLoad } from '../ui.tsx';

const yes = (on: boolean) => (on ? 'set up' : 'not set up');

export function Settings(props: { me: Me }) {
  const loaded = useLoad(() => get('/settings'), []);
  // Its own load: the integrity check reads the whole file, and the rest of the page need not wait for it.
  const check = useLoad(() => get('/settings/check'), []);
  return (
    <Page title="Settings">
      <AdminOnly me={props.me}>
        <p>Also here: <Link href="/console/event-streams">Event streams</Link> · <Link href="/console/access-rules">Access rules</Link></p>
        <Pending loaded={loaded}>{(s) => (
          <>
            <dl class="facts">
              <dt>Version</dt><dd>Gatehouse {s.version}</dd>
              <dt>Database schema</dt><dd>version {s.schema_version}{s.schema_version === s.known_schema_version ? '' : ` (this build knows ${s.known_schema_version})`}</dd>
              <dt>Address</dt><dd>{s.public_url}</dd>
              <dt>Email (SMTP)</dt><dd>{yes(s.integrations.email)}</dd>
              <dt>Slack</dt><dd>{yes(s.integrations.slack)}{s.integrations.slack && !s.integrations.slack_interactivity ? ' (buttons off: no signing secret)' : ''}</dd>
              <dt>Single sign-on</dt><dd>{yes(s.integrations.single_sign_on)}</dd>
              <dt>Replication</dt><dd>{s.integrations.replication ? 'Litestream (status below)' : 'not replicated'}</dd>
            </dl>
            <h2>Check</h2>
            <CheckResult loaded={check} />
            <h2>Every setting</h2>
            <p class="hint">Set by environment variables (or flags) when Gatehouse starts; secrets are never shown.</p>
            <div class="table-wrap">
              <table class="stack">
                <caption>Settings in effect</caption>
                <thead><tr><th scope="col">Variable</th><th scope="col">Value</th><th scope="col">Meaning</th></tr></thead>
                <tbody>{s.settings.map((setting) => (
                  <tr key={setting.name}>
                    <td data-label="Variable"><code>{setting.name}</code></td>
                    <td data-label="Value">{setting.value === null ? <em>unset</em> : <code>{setting.value}</code>}{setting.is_default ? ' (default)' : ''}</td>
                    <td data-label="Meaning">{setting.description}</td>
                  </tr>
                ))}</tbody>
              </table>
            </div>
          </>
        )}</Pending>
      </AdminOnly>
    </Page>
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
