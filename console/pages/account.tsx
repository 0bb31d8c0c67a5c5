// My sign-in sessions and API tokens: see them, end them (each after a confirmation naming what ends).
import { all, del, type Me, type Schema } from '../api.ts';
import { Page, Pending, useConfirm, useLoad, when } from '../ui.tsx';

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
