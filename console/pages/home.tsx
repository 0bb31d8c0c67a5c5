// Home: reviews waiting for me (requests, and items of access reviews), my pending requests, my access
// expiring within 7 days; the counts are the server's (exact at any size); admins see the first-run checklist.
import { all, get, type Me, type Schema } from '../api.ts';
import { isAdmin, Link, Page, Pending, useLoad, when } from '../ui.tsx';
import { FirstRun } from './first-run.tsx';
import { BreakGlassOnHome } from './break-glass.tsx';

/** An access request as the API answers it. */
export type RequestView = Schema<'Request'>;

/** Whether `userId` is asked to review this pending request now (a reviewer still PENDING in a stage). */
export function waitsFor(request: RequestView, userId: string): boolean {
  if (request.status !== 'PENDING' || request.requester_id === userId) return false;
  return (request.reviewer_stages ?? []).some((item) => item.stages.some((stage) => stage.reviewers.some((r) => r.id === userId && r.status === 'PENDING')));
}

export const itemNames = (request: RequestView): string =>
  (request.requested_items_list ?? []).map((i) => `${i.name ?? 'item'}${i.access_level_name ? ` (${i.access_level_name})` : ''}`).join(', ');

export interface Holding {
  kind: 'resource' | 'group';
  id: string;
  name: string;
  level: string;
  /** The level's remote id ('' for the default level). */
  levelId: string;
  expires: string | null;
  direct: boolean;
  paths: number;
  propagation?: string;
}

/** What `userId` holds: resources and groups, one row per item and level. */
export async function holdingsOf(userId: string): Promise<Holding[]> {
  const [resources, groups] = await Promise.all([all('/resources/users/{user_id}', { path: { user_id: userId } }), all('/groups/users/{user_id}', { path: { user_id: userId } })]);
  return [
    ...resources.map((r): Holding => ({ kind: 'resource', id: r.resource_id, name: r.resource_name ?? r.resource_id, level: r.access_level?.access_level_name || 'Default', levelId: r.access_level?.access_level_remote_id ?? '', expires: r.expiration_date ?? null, direct: r.has_direct_access, paths: r.num_access_paths, propagation: r.propagation_status?.status })),
    ...groups.map((g): Holding => ({ kind: 'group', id: g.group_id, name: g.group_name, level: g.access_level?.access_level_name || 'Member', levelId: g.access_level?.access_level_remote_id ?? '', expires: g.expiration_date ?? null, direct: true, paths: 1, propagation: g.propagation_status?.status })),
  ];
}

/** How many requests Home lists in each section; the counts above them are exact (GET /v1/requests/counts). */
const LISTED = 50;

export function Home(props: { me: Me }) {
  const me = props.me.user;
  const loaded = useLoad(async () => {
    const [counts, { requests: toReview = [] }, { requests: mine = [] }, holdings, assignments, reports] = await Promise.all([
      get('/requests/counts'),
      get('/requests', { query: { awaiting_my_review: true, page_size: LISTED } }),
      get('/requests', { query: { requester_id: me.user_id, show_pending_only: true, page_size: LISTED } }),
      holdingsOf(me.user_id),
      all('/uar-assignments', { query: { open_only: true } }),
      all('/users', { query: { manager_id: me.user_id } }),
    ]);
    const soon = Date.now() + 7 * 86_400_000;
    const accessReviews = assignments.filter((a) => a.unanswered_items > 0);
    return {
      counts,
      toReview,
      accessReviews,
      reviewItems: accessReviews.reduce((sum, a) => sum + a.unanswered_items, 0),
      mine,
      expiring: holdings.filter((h) => h.expires !== null && Date.parse(h.expires) <= soon),
      reports,
    };
  }, [me.user_id]);
  return (
    <Page title={`Welcome, ${me.full_name}`}>
      {isAdmin(props.me) && <FirstRun />}
      <Pending loaded={loaded}>{(data) => (
        <>
          <ul class="counts">
            <li>
              <strong data-count="reviews">{data.counts.awaiting_my_review + data.reviewItems}</strong> waiting for your review: {data.counts.awaiting_my_review} request{data.counts.awaiting_my_review === 1 ? '' : 's'}
              {' '}and <span data-count="review-items">{data.reviewItems}</span> access-review item{data.reviewItems === 1 ? '' : 's'}
            </li>
            <li><strong data-count="pending">{data.counts.my_pending}</strong> pending request{data.counts.my_pending === 1 ? '' : 's'} of yours</li>
            <li><strong data-count="expiring">{data.expiring.length}</strong> of your access expiring within 7 days</li>
          </ul>
          <section aria-labelledby="to-review">
            <h2 id="to-review">Waiting for your review</h2>
            {data.toReview.length + data.accessReviews.length === 0 ? <p>Nothing to review.</p> : (
              <ul>
                {data.toReview.map((r) => <li key={r.id}><Link href={`/console/requests/${r.id}`}>{itemNames(r) || r.reason}</Link> — asked {when(r.created_at)}</li>)}
                {data.accessReviews.map((a) => <li key={a.uar_id}><Link href={`/console/reviews/${a.uar_id}`}>Access review: {a.name}</Link> — {a.unanswered_items} item{a.unanswered_items === 1 ? '' : 's'} to decide by {when(a.deadline)}</li>)}
              </ul>
            )}
            {data.counts.awaiting_my_review > data.toReview.length && <p class="hint">And {data.counts.awaiting_my_review - data.toReview.length} older requests, not listed here.</p>}
          </section>
          <BreakGlassOnHome me={props.me} />
          <section aria-labelledby="mine">
            <h2 id="mine">Your pending requests</h2>
            {data.mine.length === 0 ? <p>None. <Link href="/console/requests/new">Request access</Link>.</p> : (
              <ul>{data.mine.map((r) => <li key={r.id}><Link href={`/console/requests/${r.id}`}>{itemNames(r) || r.reason}</Link> — asked {when(r.created_at)}</li>)}</ul>
            )}
            {data.counts.my_pending > data.mine.length && <p class="hint">And {data.counts.my_pending - data.mine.length} older ones.</p>}
          </section>
          <section aria-labelledby="expiring">
            <h2 id="expiring">Expiring soon</h2>
            {data.expiring.length === 0 ? <p>Nothing of yours expires within 7 days.</p> : (
              <ul>{data.expiring.map((h) => <li key={`${h.kind}${h.id}${h.level}`}><Link href={`/console/${h.kind}s/${h.id}`}>{h.name}</Link> ({h.level}) until {when(h.expires)}</li>)}</ul>
            )}
          </section>
          {data.reports.length > 0 && (
            <section aria-labelledby="reports">
              <h2 id="reports">Your reports</h2>
              <ul>{data.reports.map((u) => <li key={u.user_id}><Link href={`/console/users/${u.user_id}`}>{u.full_name}</Link>: what they hold</li>)}</ul>
            </section>
          )}
        </>
      )}</Pending>
    </Page>
  );
}
