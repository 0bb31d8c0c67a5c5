// The admin's first-run checklist on Home: the four steps from an empty install to a first request, in the
// order docs/getting-started.md follows (a team before the app it owns), each a link to its page, ticked
// from what the server holds (one small read per step). Gone once all are done.
import { get } from '../api.ts';
import { Link, useLoad } from '../ui.tsx';

interface Step {
  key: string;
  done: boolean;
  href: string;
  label: string;
  hint: string;
}

async function loadSteps(): Promise<Step[]> {
  const sso = document.body.dataset.sso === 'on';
  const page = { query: { page_size: 1 } };
  const [users, resources, groups, owners, requests] = await Promise.all([
    get('/users', { query: { page_size: 2 } }),
    get('/resources', page),
    get('/groups', page),
    get('/owners', page),
    get('/requests', page),
  ]);
  // The first admin is there from the start: another person means someone was invited.
  const people = (users.results ?? []).length > 1;
  const items = (resources.results ?? []).length > 0 || (groups.results ?? []).length > 0;
  return [
    { key: 'people', done: people || sso, href: '/console/people', label: 'Invite people', hint: sso ? 'Single sign-on is set up: people sign in with it.' : 'Add the people who ask for access and review it, and send each an invitation (or set up single sign-on).' },
    { key: 'owners', done: (owners.results ?? []).length > 0, href: '/console/teams', label: 'Name owners and reviewers', hint: 'A team owns items and reviews the requests for them. An app needs a team to own it, so this comes first.' },
    { key: 'apps', done: items, href: '/console/apps', label: 'Add an app or connect a system', hint: 'An app holds what people can request: its resources and groups, set up by hand or synced by a connector.' },
    { key: 'request', done: (requests.requests ?? []).length > 0, href: '/console/requests/new', label: 'Try a first request', hint: 'Ask for something as a person would, then approve it.' },
  ];
}

/** The checklist, for admins, while any step is left. */
export function FirstRun() {
  const loaded = useLoad(loadSteps, []);
  const steps = loaded.data;
  if (!steps || steps.every((s) => s.done)) return null;
  const left = steps.filter((s) => !s.done).length;
  return (
    <section aria-labelledby="first-run" class="first-run">
      <h2 id="first-run">Set up Gatehouse</h2>
      <p>{left} of {steps.length} steps left.</p>
      <ol class="steps">
        {steps.map((step) => (
          <li key={step.key} data-step={step.key} data-done={step.done ? 'yes' : 'no'} class={step.done ? 'done' : undefined}>
            <span aria-hidden="true" class="tick">{step.done ? '✓' : '○'}</span>
            <span>
              <Link href={step.href}>{step.label}</Link>
              <span class="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
              <br /><span class="hint">{step.hint}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
