// The admin's first-run checklist on Home: the four steps from an empty install to a first request, each a
// link to its page, ticked from what the server holds (one small read per step). Gone once all are done.
import { get } from '../api.ts';
import { Link, useLoad } from '../ui.tsx';

interface Step {
  key: string;
  done: boolean;
  href: string;
  label: string;
  hint: string;
}

/** Whether a cursor-paged list has at least `n` rows (one page of `n`). */
const hasAtLeast = async (path: string, n = 1, query: Record<string, string | number> = {}) =>
  (await get<{ results: unknown[] }>(path, { page_size: n, ...query })).results.length >= n;

async function loadSteps(): Promise<Step[]> {
  const sso = document.body.dataset.sso === 'on';
  const [people, resources, groups, owners, requests] = await Promise.all([
    // The first admin is there from the start: another person means someone was invited.
    hasAtLeast('/users', 2),
    hasAtLeast('/resources'),
    hasAtLeast('/groups'),
    hasAtLeast('/owners'),
    get<{ requests: unknown[] }>('/requests', { page_size: 1 }).then((page) => page.requests.length > 0),
  ]);
  return [
    { key: 'people', done: people || sso, href: '/console/people', label: 'Invite people', hint: sso ? 'Single sign-on is set up: people sign in with it.' : 'Add the people who ask for access and review it, and send each an invitation (or set up single sign-on).' },
    { key: 'apps', done: resources || groups, href: '/console/apps', label: 'Add an app or connect a system', hint: 'An app holds what people can request: its resources and groups, set up by hand or synced by a connector.' },
    { key: 'owners', done: owners, href: '/console/teams', label: 'Name owners and reviewers', hint: 'A team owns items and reviews the requests for them.' },
    { key: 'request', done: requests, href: '/console/requests/new', label: 'Try a first request', hint: 'Ask for something as a person would, then approve it.' },
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
      <ol class="checklist">
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
