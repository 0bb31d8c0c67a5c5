// Tokens (admins): every API token, whose it is and when it was last used; make one for yourself, another
// person or a new service user (its secret shown once, with a copy button); revoke one after a confirmation.
import { useState } from 'preact/hooks';
import { all, del, get, post, type Me, type Schema } from '../api.ts';
import { userByEmail } from './people.tsx';
import { AdminOnly, Link, Page, Pending, Problem, useAction, useConfirm, useLoad, when } from '../ui.tsx';

type Level = Schema<'ApiAccessLevelEnum'>;
type For = 'me' | 'person' | 'service';

/** A SCIM token works only for provisioning, so "full access" would overstate it (issue 41.8). */
const levelWords = (token: { access_level: Level; scope?: 'API' | 'SCIM' }) =>
  token.scope === 'SCIM' ? 'SCIM (identity provider provisioning only)' : token.access_level === 'READ_ONLY' ? 'read only' : 'full access';

export function Tokens(props: { me: Me }) {
  const loaded = useLoad(async () => {
    const tokens = await all('/tokens');
    // The names of the people holding tokens (a few, however many people there are).
    const holders = [...new Set(tokens.map((t) => t.user_id))];
    const people = await Promise.all(holders.map((user_id) => get('/users/{user_id}', { path: { user_id } }).catch(() => undefined)));
    return { tokens, names: new Map(people.flatMap((u) => (u ? [[u.user_id, u.full_name] as const] : []))) };
  }, []);
  const confirm = useConfirm();
  const [issued, setIssued] = useState<Schema<'IssuedToken'> | undefined>(undefined);
  return (
    <Page title="Tokens">
      <AdminOnly me={props.me}>
        <p class="hint">An API token acts as its person, with their role; a read-only token cannot change anything.</p>
        <h2>Make a token</h2>
        <NewToken me={props.me} onIssued={(token) => { setIssued(token); loaded.reload(); }} />
        {issued && <ShownOnce token={issued} />}
        <h2>Every token</h2>
        <Pending loaded={loaded}>{({ tokens, names }) => tokens.length === 0 ? <p>There are no API tokens.</p> : (
          <div class="table-wrap">
            <table class="stack">
              <caption>API tokens, oldest first</caption>
              <thead><tr><th scope="col">Label</th><th scope="col">Whose</th><th scope="col">Access</th><th scope="col">Made</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>{tokens.map((t) => {
                const whose = t.user_id === props.me.user.user_id ? 'You' : names.get(t.user_id) ?? t.user_id;
                return (
                  <tr key={t.token_id}>
                    <td data-label="Label">{t.token_label}</td>
                    <td data-label="Whose"><Link href={`/console/users/${t.user_id}`}>{whose}</Link></td>
                    <td data-label="Access">{levelWords(t)}</td>
                    <td data-label="Made">{when(t.created_at)}</td>
                    <td data-label="Last used">{when(t.last_used_at)}</td>
                    <td class="row-actions"><button type="button" class="danger" onClick={() => confirm.ask({
                      title: `Revoke the token ${t.token_label}?`,
                      body: <p>Anything using {whose === 'You' ? 'your' : `${whose}'s`} token {t.token_label} is refused from its next call. A revoked token cannot be restored.</p>,
                      confirm: `Revoke ${t.token_label}`,
                      action: () => del('/tokens/{token_id}', { path: { token_id: t.token_id } }),
                      done: loaded.reload,
                    })}>Revoke {t.token_label}</button></td>
                  </tr>
                );
              })}</tbody>
            </table>
          </div>
        )}</Pending>
        {confirm.dialog}
      </AdminOnly>
    </Page>
  );
}

function NewToken(props: { me: Me; onIssued: (token: Schema<'IssuedToken'>) => void }) {
  const [label, setLabel] = useState('');
  const [level, setLevel] = useState<Level | 'SCIM'>('READ_ONLY');
  const [whose, setWhose] = useState<For>('me');
  const [email, setEmail] = useState('');
  const [serviceName, setServiceName] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      let userId = props.me.user.user_id;
      if (whose === 'person') {
        const person = await userByEmail(email.trim());
        if (!person) throw new Error(`Nobody has the email ${email.trim()}. Add them under People first.`);
        userId = person.user_id;
      }
      if (whose === 'service') {
        // A service user is a person record for a machine: it signs in nowhere, and its tokens act as a member.
        const service = await post('/users', { body: { email: email.trim(), full_name: serviceName.trim(), position: 'Service user' } });
        userId = service.user_id;
      }
      // A SCIM token is an identity provider's (docs/scim.md): full access, on /scim/v2 only.
      const body = level === 'SCIM'
        ? { token_label: label.trim(), access_level: 'FULL_ACCESS' as const, user_id: userId, scope: 'SCIM' as const }
        : { token_label: label.trim(), access_level: level, user_id: userId };
      props.onIssued(await post('/tokens', { body }));
    });
    if (ok) {
      setLabel('');
      setEmail('');
      setServiceName('');
    }
  };
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>For whom</legend>
        <label class="choice"><input type="radio" name="token-for" checked={whose === 'me'} onChange={() => setWhose('me')} /> Yourself</label>
        <label class="choice"><input type="radio" name="token-for" checked={whose === 'person'} onChange={() => setWhose('person')} /> Another person</label>
        <label class="choice"><input type="radio" name="token-for" checked={whose === 'service'} onChange={() => setWhose('service')} /> A new service user (a script or system)</label>
      </fieldset>
      {whose === 'service' && (
        <div class="field"><label for="token-service-name">Service user's name</label>
          <input id="token-service-name" required value={serviceName} onInput={(e) => setServiceName(e.currentTarget.value)} /></div>
      )}
      {whose !== 'me' && (
        <div class="field"><label for="token-email">{whose === 'service' ? 'Service user\'s email (a mailbox its owners read)' : 'Their email'}</label>
          <input id="token-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></div>
      )}
      <div class="field"><label for="token-label">Label</label>
        <input id="token-label" required value={label} aria-describedby="token-label-hint" onInput={(e) => setLabel(e.currentTarget.value)} />
        <p id="token-label-hint" class="hint">What uses it, e.g. “CI deploys”.</p></div>
      <div class="field"><label for="token-level">Access</label>
        <select id="token-level" value={level} aria-describedby="token-level-hint" onChange={(e) => setLevel(e.currentTarget.value as Level | 'SCIM')}>
          <option value="READ_ONLY">Read only</option>
          <option value="FULL_ACCESS">Full access</option>
          {whose !== 'service' && <option value="SCIM">Identity provider provisioning (SCIM)</option>}
        </select>
        <p id="token-level-hint" class="hint">Read only reads and never changes anything; full access does all its person may do. A SCIM token is for your identity provider (Okta, Entra ID…) at {location.origin}/scim/v2: it works only there, and only for an admin.</p></div>
      <button type="submit" class="primary" disabled={action.busy}>Make token</button>
      <Problem message={action.error} />
    </form>
  );
}

/** A new token's secret: shown this once (Gatehouse keeps only its hash), with a copy button. */
function ShownOnce(props: { token: Schema<'IssuedToken'> }) {
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.token.token);
      setCopied('Copied.');
    } catch {
      setCopied('Copying was refused by the browser: select the token and copy it yourself.');
    }
  };
  return (
    <div class="notice" role="status">
      <p>The token {props.token.token_label}, shown only now: Gatehouse keeps only its hash.</p>
      <p><input readOnly value={props.token.token} aria-label={`Secret of the token ${props.token.token_label}`} onFocus={(e) => e.currentTarget.select()} /></p>
      <p><button type="button" onClick={copy}>Copy token</button> <span aria-live="polite">{copied}</span></p>
    </div>
  );
}
