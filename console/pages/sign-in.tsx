// Signing in without a shell: the signed-out page (single sign-on, "Email me a sign-in link", or what to
// do when neither is set up), and the button an admin uses to send a person a sign-in link or an invitation.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, post } from '../api.ts';
import { useAction } from '../ui.tsx';

/**
 * The signed-out page, on whatever console address was opened (a link in a notice lands here too):
 * single sign-on when it is set up, an Email field that mails a one-time link when email is set up,
 * and otherwise who to ask.
 */
export function SignIn(props: { reason: string | undefined }) {
  const sso = document.body.dataset.sso === 'on';
  const email = document.body.dataset.email === 'on';
  const returnTo = location.pathname.startsWith('/console') ? location.pathname : '/console';
  useEffect(() => {
    document.title = 'Sign in · Gatehouse';
  }, []);
  return (
    <main id="main" class="page narrow">
      <h1>Sign in to Gatehouse</h1>
      {props.reason && <p class="notice" role="status">{props.reason}</p>}
      {returnTo !== '/console' && <p>Sign in to see this page: you come back to it once signed in.</p>}
      {sso && <p><a class="button primary" href={`/console/oidc/start?return_to=${encodeURIComponent(returnTo)}`}>Sign in with single sign-on</a></p>}
      {email && <EmailLinkForm alsoSso={sso} returnTo={returnTo} />}
      {!sso && !email && (
        <p>Single sign-on and email are not set up here, so an administrator gives you a sign-in link: ask one to send it from your page under People.</p>
      )}
    </main>
  );
}

function EmailLinkForm(props: { alsoSso: boolean; returnTo: string }) {
  const [address, setAddress] = useState('');
  const [sent, setSent] = useState<string | undefined>(undefined);
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    setFieldError(undefined);
    setSent(undefined);
    await action.run(async () => {
      try {
        const answer = await post('/console/sign-in/email', { body: { email: address, return_to: props.returnTo } });
        setSent(answer.message);
      } catch (err) {
        const onField = err instanceof ApiError ? err.details.find((d) => d.path === 'email') : undefined;
        if (!onField) throw err;
        setFieldError(`Email ${onField.message}.`);
      }
    });
  };
  return (
    <form method="post" action="/console/sign-in/email" onSubmit={submit} noValidate>
      <input type="hidden" name="return_to" value={props.returnTo} />
      {props.alsoSso && <h2>Or sign in by email</h2>}
      <div class="field">
        <label for="sign-in-email">Email</label>
        <input id="sign-in-email" name="email" type="email" autocomplete="email" required value={address}
          aria-invalid={fieldError ? 'true' : undefined} aria-describedby={fieldError ? 'sign-in-email-error' : 'sign-in-email-hint'}
          onInput={(e) => setAddress((e.target as HTMLInputElement).value)} />
        {fieldError ? <p id="sign-in-email-error" class="error">{fieldError}</p> : <p id="sign-in-email-hint" class="hint">We email you a link that signs you in once.</p>}
      </div>
      <p><button type="submit" class={props.alsoSso ? undefined : 'primary'} disabled={action.busy}>Email me a sign-in link</button></p>
      {sent && <p class="notice" role="status">{sent}</p>}
      {action.error && <p class="error" role="alert">{action.error}</p>}
    </form>
  );
}

/**
 * For a person's page (People): sends them a sign-in link or an invitation by email
 * (POST /v1/users/{user_id}/sign-in-link); where email is not set up, shows the link once to pass on.
 */
export function SendSignInLink(props: { userId: string; name: string }) {
  const [done, setDone] = useState<string | undefined>(undefined);
  const [shown, setShown] = useState<string | undefined>(undefined);
  const action = useAction();
  const emailSetUp = document.body.dataset.email === 'on';
  const send = (kind: 'SIGN_IN' | 'INVITATION') => () => action.run(async () => {
    setDone(undefined);
    setShown(undefined);
    const sent = await post('/users/{user_id}/sign-in-link', { path: { user_id: props.userId }, body: { kind, send_email: emailSetUp } });
    if (sent.url) setShown(sent.url);
    else setDone(`${kind === 'INVITATION' ? 'Invitation' : 'Sign-in link'} sent to ${sent.email}.`);
  });
  return (
    <div>
      <div class="actions">
        <button type="button" disabled={action.busy} onClick={send('SIGN_IN')}>{emailSetUp ? `Email ${props.name} a sign-in link` : `Make a sign-in link for ${props.name}`}</button>
        {emailSetUp && <button type="button" disabled={action.busy} onClick={send('INVITATION')}>Invite {props.name} by email</button>}
      </div>
      {done && <p class="notice" role="status">{done}</p>}
      {shown && (
        <div class="notice" role="status">
          <p>Give {props.name} this link; it works once, shown only now:</p>
          <p><input readOnly value={shown} aria-label={`Sign-in link for ${props.name}`} onFocus={(e) => (e.target as HTMLInputElement).select()} /></p>
        </div>
      )}
      {action.error && <p class="error" role="alert">{action.error}</p>}
    </div>
  );
}
