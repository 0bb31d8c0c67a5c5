// People (admins): find people by name or email (GET /v1/users?contains=, keyset pages), add a person or many
// (people-bulk.tsx), and on a
// person's page change their role, send a sign-in link, and see and end their API tokens and sign-in sessions.
import { useState } from 'preact/hooks';
import { ApiError, all, del, get, post, put, type Me, type Schema } from '../api.ts';
import { AdminOnly, Link, Page, Problem, roleWords, useAction, useConfirm, useLoad, userStatusWords, when } from '../ui.tsx';
import { SendSignInLink } from './sign-in.tsx';
import { AddManyPeople } from './people-bulk.tsx';

type User = Schema<'User'>;
type Role = User['organization_role'];

/** People shown per page of the list; "Show more" reads the next keyset page. */
const PAGE_SIZE = 50;

/** Finds a person by email (the manager field, the Tokens page): undefined when nobody has it. */
export async function userByEmail(email: string): Promise<User | undefined> {
  try {
    return await get('/user', { query: { email } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

export function People(props: { me: Me }) {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [extra, setExtra] = useState<{ rows: User[]; next: string | null }>({ rows: [], next: null });
  const loaded = useLoad(async () => {
    const page = await get('/users', { query: { contains: applied || undefined, page_size: PAGE_SIZE } });
    setExtra({ rows: [], next: page.next ?? null });
    // The rows carry the search they answer: until the new search's answer arrives, the old rows keep their own caption.
    return { search: applied, rows: page.results };
  }, [applied]);
  const more = useAction();
  const showMore = () => more.run(async () => {
    const page = await get('/users', { query: { contains: applied || undefined, page_size: PAGE_SIZE, cursor: extra.next ?? undefined } });
    setExtra({ rows: [...extra.rows, ...page.results], next: page.next ?? null });
  });
  const [added, setAdded] = useState<User | undefined>(undefined);
  return (
    <Page title="People">
      <AdminOnly me={props.me}>
        <form class="filters" role="search" onSubmit={(e) => { e.preventDefault(); setApplied(search.trim()); }}>
          <div class="field"><label for="people-search">Name or email contains</label>
            <input id="people-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} /></div>
          <button type="submit">Search</button>
        </form>
        {loaded.error ? <Problem message={loaded.error} /> : loaded.data === undefined ? <p aria-live="polite">Loading…</p> : (
          <PeopleTable rows={[...loaded.data.rows, ...extra.rows]} caption={loaded.data.search ? `People whose name or email contains “${loaded.data.search}”` : 'Everyone'} />
        )}
        {extra.next && <p><button type="button" disabled={more.busy} onClick={showMore}>Show more people</button></p>}
        <Problem message={more.error} />
        <h2>Add a person</h2>
        <AddPerson onAdded={(user) => { setAdded(user); loaded.reload(); }} />
        {added && (
          <p class="notice" role="status">
            Added <Link href={`/console/users/${added.user_id}`}>{added.full_name}</Link>. Send them a sign-in link from their page.
          </p>
        )}
        <AddManyPeople onAdded={loaded.reload} />
      </AdminOnly>
    </Page>
  );
}

function PeopleTable(props: { rows: User[]; caption: string }) {
  if (props.rows.length === 0) return <p>Nobody matches.</p>;
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption>{props.caption}</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th></tr></thead>
        <tbody>{props.rows.map((u) => (
          <tr key={u.user_id}>
            <td data-label="Name"><Link href={`/console/users/${u.user_id}`}>{u.full_name}</Link></td>
            <td data-label="Email">{u.email}</td>
            <td data-label="Role">{roleWords(u.organization_role)}</td>
            <td data-label="Status">{userStatusWords(u.hr_idp_status ?? 'ACTIVE')}</td>
          </tr>
        ))}</tbody>
      </table>
    </div>
  );
}

function AddPerson(props: { onAdded: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [managerEmail, setManagerEmail] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      let managerId: string | undefined;
      if (managerEmail.trim()) {
        const manager = await userByEmail(managerEmail.trim());
        if (!manager) throw new Error(`Nobody has the email ${managerEmail.trim()}: add the manager first, or leave the field empty.`);
        managerId = manager.user_id;
      }
      const user = await post('/users', { body: { email: email.trim(), full_name: name.trim(), manager_id: managerId, organization_role: role } });
      props.onAdded(user);
    });
    if (ok) {
      setEmail('');
      setName('');
      setManagerEmail('');
      setRole('MEMBER');
    }
  };
  return (
    <form onSubmit={submit}>
      <div class="field"><label for="add-email">Email</label>
        <input id="add-email" type="email" autocomplete="off" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></div>
      <div class="field"><label for="add-name">Full name</label>
        <input id="add-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="add-manager">Manager's email <span class="required">(optional)</span></label>
        <input id="add-manager" type="email" autocomplete="off" value={managerEmail} onInput={(e) => setManagerEmail(e.currentTarget.value)} /></div>
      <div class="field"><label for="add-role">Role</label>
        <select id="add-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
          <option value="MEMBER">Member: asks for access and reviews</option>
          <option value="ADMIN">Admin: runs Gatehouse</option>
        </select></div>
      <button type="submit" class="primary" disabled={action.busy}>Add person</button>
      <Problem message={action.error} />
    </form>
  );
}

/**
 * The admin's part of a person's page: their role, a sign-in link, and their API tokens and sign-in
 * sessions, each ended only after a confirmation naming it.
 */
export function PersonAdmin(props: { me: Me; person: User; onChanged: () => void }) {
  const { person } = props;
  const loaded = useLoad(async () => {
    const query = { user_id: person.user_id };
    const [tokens, sessions] = await Promise.all([all('/tokens', { query }), all('/web-sessions', { query })]);
    return { tokens, sessions };
  }, [person.user_id, person.hr_idp_status, person.organization_role]);
  const confirm = useConfirm();
  const [role, setRole] = useState<Role>(person.organization_role);
  const action = useAction();
  const setTo = (next: Role) => action.run(() => put('/users/{user_id}', { path: { user_id: person.user_id }, body: { organization_role: next } })).then((ok) => ok && props.onChanged());
  const changeRole = (e: Event) => {
    e.preventDefault();
    if (role === person.organization_role) return;
    if (role === 'ADMIN') return void setTo(role);
    confirm.ask({
      title: `Make ${person.full_name} a member?`,
      body: <p>{person.full_name} stops being an admin now: the console sessions they started as an admin end, and their API tokens act as a member's from their next call.</p>,
      confirm: `Make ${person.full_name} a member`,
      action: () => put('/users/{user_id}', { path: { user_id: person.user_id }, body: { organization_role: 'MEMBER' } }),
      done: props.onChanged,
    });
  };
  const active = person.hr_idp_status === undefined || person.hr_idp_status === 'ACTIVE';
  return (
    <section aria-labelledby="person-admin">
      <h2 id="person-admin">Administration</h2>
      {active && (
        <form class="filters" onSubmit={changeRole}>
          <div class="field"><label for="person-role">Role</label>
            <select id="person-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              <option value="MEMBER">Member</option>
              <option value="ADMIN">Admin</option>
            </select></div>
          <button type="submit" disabled={action.busy || role === person.organization_role}>Change role</button>
        </form>
      )}
      <Problem message={action.error} />
      <NameAndEmail me={props.me} person={person} onChanged={props.onChanged} />
      {active && <SignInLink person={person} />}
      {loaded.error ? <Problem message={loaded.error} /> : loaded.data === undefined ? <p aria-live="polite">Loading…</p> : (
        <>
          <h3>API tokens</h3>
          {loaded.data.tokens.length === 0 ? <p>{person.full_name} has no API tokens.</p> : (
            <ul class="plain">{loaded.data.tokens.map((t) => (
              <li key={t.token_id}>
                <span>{t.token_label} ({t.access_level === 'READ_ONLY' ? 'read only' : 'full access'}), last used {when(t.last_used_at)}</span>
                <button type="button" class="danger" onClick={() => confirm.ask({
                  title: `Revoke ${person.full_name}'s token ${t.token_label}?`,
                  body: <p>Anything using the token {t.token_label} is refused from its next call. A revoked token cannot be restored; make a new one on the Tokens page.</p>,
                  confirm: `Revoke ${t.token_label}`,
                  action: () => del('/tokens/{token_id}', { path: { token_id: t.token_id } }),
                  done: loaded.reload,
                })}>Revoke token {t.token_label}</button>
              </li>
            ))}</ul>
          )}
          <h3>Sign-in sessions</h3>
          {loaded.data.sessions.length === 0 ? <p>{person.full_name} is not signed in anywhere.</p> : (
            <ul class="plain">{loaded.data.sessions.map((s) => (
              <li key={s.web_session_id}>
                <span>{s.sign_in_method === 'OIDC' ? 'Single sign-on' : 'Sign-in link'} on {when(s.created_at)}{s.ip_address ? ` from ${s.ip_address}` : ''}</span>
                {s.web_session_id === props.me.web_session_id ? ' (this browser)' : (
                  <button type="button" onClick={() => confirm.ask({
                    title: `End ${person.full_name}'s session from ${when(s.created_at)}?`,
                    body: <p>That browser is signed out at its next step; {person.full_name} can sign in again.</p>,
                    confirm: 'End session',
                    action: () => del('/web-sessions/{web_session_id}', { path: { web_session_id: s.web_session_id } }),
                    done: loaded.reload,
                  })}>End session from {when(s.created_at)}</button>
                )}
              </li>
            ))}</ul>
          )}
        </>
      )}
      {confirm.dialog}
    </section>
  );
}

/**
 * An admin changes a person's name and email (`PUT /v1/users/{user_id}`, only what changed). A new email
 * asks first: both addresses are told, and the person's sign-in sessions and unused links end.
 */
function NameAndEmail(props: { me: Me; person: User; onChanged: () => void }) {
  const { person } = props;
  const [name, setName] = useState(person.full_name);
  const [email, setEmail] = useState(person.email);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const action = useAction();
  const confirm = useConfirm();
  const self = person.user_id === props.me.user.user_id;
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(undefined);
    const body = { ...(name.trim() !== person.full_name && { full_name: name.trim() }), ...(email.trim().toLowerCase() !== person.email.toLowerCase() && { email: email.trim() }) };
    if (Object.keys(body).length === 0) return action.setError('Nothing changed: edit the name or the email first.');
    const change = () => put('/users/{user_id}', { path: { user_id: person.user_id }, body });
    const done = () => {
      setSaved(`Saved: ${[body.full_name !== undefined && `the name is ${body.full_name}`, body.email !== undefined && `the email is ${body.email}`].filter(Boolean).join(', and ')}.`);
      props.onChanged();
    };
    if (body.email === undefined) {
      if (await action.run(change)) done();
      return;
    }
    confirm.ask({
      title: `Change ${person.full_name}'s email to ${body.email}?`,
      body: (
        <>
          <p>Both {person.email} and {body.email} are told of the change. {self ? 'You are' : `${person.full_name} is`} signed out of the console everywhere, and every sign-in link or invitation not yet used stops working: whoever reads the old mailbox can no longer sign in as {self ? 'you' : 'them'}.</p>
          <p>API tokens stay.</p>
        </>
      ),
      confirm: 'Change the email',
      action: change,
      done,
    });
  };
  return (
    <form onSubmit={save} aria-labelledby="name-email">
      <h3 id="name-email">Name and email</h3>
      <div class="field"><label for="person-name">Full name</label>
        <input id="person-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="person-email">Email</label>
        <input id="person-email" type="email" required autocomplete="off" value={email} onInput={(e) => setEmail(e.currentTarget.value)} aria-describedby="person-email-help" />
        <p class="hint" id="person-email-help">Where their notices and sign-in links go. Changing it tells both addresses and signs them out.</p></div>
      <button type="submit" disabled={action.busy}>Save name and email</button>
      <Problem message={action.error} />
      {saved && <p class="notice" role="status">{saved}</p>}
      {confirm.dialog}
    </form>
  );
}

/**
 * Sending a person a sign-in link: the one place the People pages reach for it. SendSignInLink
 * (pages/sign-in.tsx) emails a link or an invitation (POST /v1/users/{user_id}/sign-in-link), or,
 * where email is not set up, shows the link once for the admin to pass on.
 */
function SignInLink(props: { person: User }) {
  return <SendSignInLink userId={props.person.user_id} name={props.person.full_name} />;
}
