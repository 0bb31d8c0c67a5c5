// The console's entry: finds out who is signed in, then draws the page the address names inside the
// layout (skip link, navigation, sign-out). A missing or ended session shows the sign-in page.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, post, setSession, type Me } from './api.ts';
import { isAdmin, Link, messageOf, navigate, Page } from './ui.tsx';
import { Home } from './pages/home.tsx';
import { NewRequest, RequestPage } from './pages/requests.tsx';
import { MyAccess, ItemPage, PersonPage } from './pages/access.tsx';
import { AuditTrail } from './pages/audit.tsx';
import { ReviewPage, Reviews } from './pages/reviews.tsx';
import { Account } from './pages/account.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { People } from './pages/people.tsx';
import { TeamPage, Teams } from './pages/teams.tsx';
import { Tokens } from './pages/tokens.tsx';
import { Settings } from './pages/settings.tsx';
import { EventStreams } from './pages/event-streams.tsx';
import { AccessRules } from './pages/access-rules.tsx';
import { AppPage, Apps } from './pages/apps.tsx';
import { ItemSettings } from './pages/item-settings.tsx';
import { RequestTemplates } from './pages/request-templates.tsx';
import { BreakGlassPage } from './pages/break-glass.tsx';


function route(path: string, me: Me) {
  const parts = path.replace(/\/+$/, '').split('/').slice(2);
  const [first, second, third] = parts;
  if (first === undefined) return <Home me={me} />;
  if (first === 'requests' && second === 'new') return <NewRequest me={me} />;
  if (first === 'requests' && second) return <RequestPage me={me} id={second} />;
  if (first === 'access') return <MyAccess me={me} />;
  if ((first === 'resources' || first === 'groups') && second && third === 'settings') return <ItemSettings me={me} kind={first === 'resources' ? 'resource' : 'group'} id={second} />;
  if ((first === 'resources' || first === 'groups') && second) return <ItemPage me={me} kind={first === 'resources' ? 'resource' : 'group'} id={second} />;
  if (first === 'users' && second) return <PersonPage me={me} id={second} />;
  if (first === 'events') return <AuditTrail me={me} />;
  if (first === 'reviews' && second) return <ReviewPage me={me} id={second} />;
  if (first === 'reviews') return <Reviews me={me} />;
  if (first === 'account') return <Account me={me} />;
  if (first === 'people') return <People me={me} />;
  if (first === 'teams' && second) return <TeamPage me={me} id={second} />;
  if (first === 'teams') return <Teams me={me} />;
  if (first === 'tokens') return <Tokens me={me} />;
  if (first === 'settings') return <Settings me={me} />;
  if (first === 'event-streams') return <EventStreams me={me} />;
  if (first === 'access-rules') return <AccessRules me={me} />;
  if (first === 'apps' && second) return <AppPage me={me} id={second} />;
  if (first === 'apps') return <Apps me={me} />;
  if (first === 'request-templates') return <RequestTemplates me={me} />;
  if (first === 'break-glass' && second) return <BreakGlassPage me={me} id={second} />;
  return <NotFound path={path} />;
}

/** The console's own page for an address it has no page for (the server answers such an address 404 with the shell). */
function NotFound(props: { path: string }) {
  return (
    <Page title="Page not found">
      <p>There is no console page at <code>{props.path}</code>. The link may be old, or mistyped.</p>
      <ul>
        <li><Link href="/console">Home</Link></li>
        <li><Link href="/console/access">My access</Link></li>
        <li><Link href="/console/requests/new">Request access</Link></li>
      </ul>
    </Page>
  );
}

function Layout(props: { me: Me; path: string; onSignOut: () => void }) {
  const { me, path } = props;
  const [error, setError] = useState<string | undefined>(undefined);
  const links: [string, string][] = [
    ['/console', 'Home'],
    ['/console/requests/new', 'Request access'],
    ['/console/access', 'My access'],
    // Everyone may be asked to review; the page shows a member only what is assigned to them.
    ['/console/reviews', 'Access reviews'],
    ...(isAdmin(me) ? ([['/console/events', 'Audit trail']] as [string, string][]) : []),
    ...(isAdmin(me) ? ([['/console/people', 'People'], ['/console/teams', 'Teams'], ['/console/apps', 'Apps'], ['/console/tokens', 'Tokens'], ['/console/settings', 'Settings']] as [string, string][]) : []),
    ['/console/account', 'Account'],
  ];
  // After moving to another page, focus its heading (screen readers announce it); not on first load,
  // where the first Tab must reach the skip link.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setTimeout(() => document.getElementById('page-title')?.focus({ preventScroll: true }), 0);
  }, [path]);
  // The menu is open on the page where it was opened: moving to another page folds it in the same
  // render that draws the new page (an effect after the paint would leave it open for a frame).
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === path;
  const signOut = async () => {
    try {
      await post('/console/sign-out');
      props.onSignOut();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <Link href="/console" class="brand">Gatehouse</Link>
        {/* On a phone the links fold behind one button, so a page starts near the top of the screen. */}
        <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="main-links" onClick={() => setMenuOpenOn(menuOpen ? null : path)}>Menu</button>
        <nav aria-label="Main">
          <ul id="main-links" class={menuOpen ? 'open' : undefined} onClick={() => setMenuOpenOn(null)}>
            {links.map(([href, label]) => (
              <li key={href}><Link href={href} class={path === href ? 'current' : undefined}>{label}</Link></li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>{me.user.full_name} ({me.user.organization_role === 'ADMIN' ? 'admin' : 'member'})</span>
          <button type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
      {error && <p class="error" role="alert">{error}</p>}
      <main id="main" class="page">{route(path, me)}</main>
    </>
  );
}

function App() {
  const [me, setMe] = useState<Me | undefined>(undefined);
  const [signedOut, setSignedOut] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [path, setPath] = useState(location.pathname);

  useEffect(() => {
    const moved = () => setPath(location.pathname);
    addEventListener('popstate', moved);
    return () => removeEventListener('popstate', moved);
  }, []);

  // Something changed who is signed in (Account's name): read the session again, keeping the page.
  useEffect(() => {
    const changed = () => void get('/console/session').then(setMe, (err: unknown) => setFailure(messageOf(err)));
    addEventListener('gatehouse-session-changed', changed);
    return () => removeEventListener('gatehouse-session-changed', changed);
  }, []);

  useEffect(() => {
    get('/console/session').then(
      (session) => {
        setSession(session.csrf_token, (reason) => {
          setMe(undefined);
          setSignedOut(reason);
        });
        setMe(session);
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 401) setSignedOut(err.message === 'you are not signed in' ? '' : err.message);
        else setFailure(messageOf(err));
      },
    );
  }, []);

  if (failure) return <main id="main" class="page narrow"><h1>Gatehouse</h1><p class="error" role="alert">{failure}</p></main>;
  if (signedOut !== undefined && !me) return <SignIn reason={signedOut || undefined} />;
  if (!me) return <main id="main" class="page"><p aria-live="polite">Loading Gatehouse…</p></main>;
  return <Layout me={me} path={path} onSignOut={() => { setMe(undefined); setSignedOut('You signed out.'); navigate('/console'); }} />;
}

// The first 401 from /console/session goes through setSession's default (nothing): App handles it.
render(<App />, document.getElementById('app')!);
