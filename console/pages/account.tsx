// My account: the name people see (mine to change), my sign-in sessions and API tokens: see them, end them
// (each after a confirmation naming what ends).
import { useState } from 'preact/hooks';
import { all, del, put, type Me, type Schema } from '../api.ts';
import { Page, Pending, Problem, sessionChanged, useAction, useConfirm, useLoad, when } from '../ui.tsx';

/** Changes the signed-in person's own name (`PUT /v1/users/{user_id}/name`); the header shows it at once. */
function YourName(props: { me: Me }) {
  const [name, setName] = useState(props.me.user.full_name);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const action = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(undefined);
    const next = name.trim();
    if (await action.run(() => put('/users/{user_id}/name', { path: { user_id: props.me.user.user_id }, body: { full_name: next } }))) {
      setName(next);
      setSaved(`Saved: people now see you as ${next}.`);
      sessionChanged();
    }
  };
  return (
    <form onSubmit={save} aria-labelledby="your-name">
      <h2 id="your-name">Your name</h2>
      <div class="field"><label for="account-name">The name people see</label>
        <input id="account-name" required maxLength={200} autocomplete="name" value={name} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="account-name-help" /></div>
      <button type="submit" disabled={action.busy}>Save name</button>
      <p class="hint" id="account-name-help">Your email ({props.me.user.email}) is changed by an admin, since sign-in links go there.</p>
      <Problem message={action.error} />
      {saved && <p class="notice" role="status">{saved}</p>}
    </form>
  );
}

export function Account(props: { me: Me }) {
  const loaded = useLoad(async () => {
    const [sessions, tokens] = await Promise.all([all('/web-sessions', { query: { user_id: props.me.user.user_id } }), all('/tokens', { query: { user_id: props.me.user.user_id } })]);
    return { sessions, tokens };
  }, []);
  const confirm = useConfirm();
  const endSession = (s: { web_session_id: string; created_at: string; ip_address?: string | null }) => () => confirm.ask({
    title: `End the sign-in session from ${when(s.created_at)}?`,
    body: <p>The browser signed in with it{s.ip_address ? ` (from ${s.ip_address})` : ''} is signed out at its next step.</p>,
    confirm: 'End session',
    action: () => del('/web-sessions/{web_session_id}', { path: { web_session_id: s.web_session_id } }),
    done: loaded.reload,
  });
  const revokeToken = (t: Pick<Schema<'Token'>, 'token_id' | 'token_label'>) => () => confirm.ask({
    title: `Revoke the token ${t.token_label}?`,
    body: <p>Every script or service using {t.token_label} is refused from now on. This cannot be undone: make a new token if it is still needed.</p>,
    confirm: `Revoke ${t.token_label}`,
    action: () => del('/tokens/{token_id}', { path: { token_id: t.token_id } }),
    done: loaded.reload,
  });
  return (
    <Page title="Your account">
      <p>{props.me.user.full_name}, {props.me.user.email}</p>
      <YourName me={props.me} />
      {confirm.dialog}
      <Pending loaded={loaded}>{({ sessions, tokens }) => (
        <>
          <h2>Sign-in sessions</h2>
          <ul class="plain">{sessions.map((s) => (
            <li key={s.web_session_id}>
              {s.sign_in_method === 'OIDC' ? 'Single sign-on' : 'Sign-in link'} on {when(s.created_at)}{s.ip_address ? ` from ${s.ip_address}` : ''}
              {s.web_session_id === props.me.web_session_id ? ' (this browser)' : <> <button type="button" onClick={endSession(s)}>End session from {when(s.created_at)}</button></>}
            </li>
          ))}</ul>
          <h2>API tokens</h2>
          {tokens.length === 0 ? <p>You have no API tokens.</p> : (
            <ul class="plain">{tokens.map((t) => (
              <li key={t.token_id}>{t.token_label} ({t.scope === 'SCIM' ? 'SCIM' : t.access_level === 'READ_ONLY' ? 'read only' : 'full access'}), last used {when(t.last_used_at)} <button type="button" class="danger" onClick={revokeToken(t)}>Revoke token {t.token_label}</button></li>
            ))}</ul>
          )}
        </>
      )}</Pending>
    </Page>
  );
}
