// My sign-in sessions and API tokens: see them, end them.
import { all, del, type Me } from '../api.ts';
import { Page, Pending, Problem, useAction, useLoad, when } from '../ui.tsx';

export function Account(props: { me: Me }) {
  const loaded = useLoad(async () => {
    const [sessions, tokens] = await Promise.all([all('/web-sessions', { query: { user_id: props.me.user.user_id } }), all('/tokens', { query: { user_id: props.me.user.user_id } })]);
    return { sessions, tokens };
  }, []);
  const action = useAction();
  const end = (ending: () => Promise<unknown>) => async () => {
    if (await action.run(ending)) loaded.reload();
  };
  return (
    <Page title="Your account">
      <p>{props.me.user.full_name}, {props.me.user.email}</p>
      <Problem message={action.error} />
      <Pending loaded={loaded}>{({ sessions, tokens }) => (
        <>
          <h2>Sign-in sessions</h2>
          <ul class="plain">{sessions.map((s) => (
            <li key={s.web_session_id}>
              {s.sign_in_method === 'OIDC' ? 'Single sign-on' : 'Sign-in link'} on {when(s.created_at)}{s.ip_address ? ` from ${s.ip_address}` : ''}
              {s.web_session_id === props.me.web_session_id ? ' (this browser)' : <> <button type="button" onClick={end(() => del('/web-sessions/{web_session_id}', { path: { web_session_id: s.web_session_id } }))}>End session from {when(s.created_at)}</button></>}
            </li>
          ))}</ul>
          <h2>API tokens</h2>
          {tokens.length === 0 ? <p>You have no API tokens.</p> : (
            <ul class="plain">{tokens.map((t) => (
              <li key={t.token_id}>{t.token_label} ({t.access_level}), last used {when(t.last_used_at)} <button type="button" class="danger" onClick={end(() => del('/tokens/{token_id}', { path: { token_id: t.token_id } }))}>Revoke token {t.token_label}</button></li>
            ))}</ul>
          )}
        </>
      )}</Pending>
    </Page>
  );
}
