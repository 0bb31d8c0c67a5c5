// What a notice says: an email (subject, plain text, HTML) and a Slack message (text and Block Kit
// blocks), made when it is sent from the state things are in then, with links into the console.
import type { AppContext } from '../../context.ts';
import { publicBase } from '../../http/public-base.ts';
import type { SlackMessage } from './channels/channel.ts';
import { waitingSlots } from './plan.ts';
import type { NotificationRow } from './store.ts';
import { durationInWords, instantInWords, spanInWords } from './words.ts';
import type { AccessChangeCause } from '../access/changes.ts';
import type { EndedItem } from './access-ended.ts';

export interface Rendered {
  subject: string;
  /** Paragraphs of plain text; the HTML and Slack forms are made from the same lines. */
  lines: string[];
  link: { label: string; url: string };
  /** A request Slack may offer Approve and Deny buttons for (still PENDING, and the notice asks for a review). */
  actionableRequestId: string | null;
}

/** Slack action ids of the buttons; the interactivity endpoint answers only these. */
export const APPROVE_ACTION = 'gatehouse_approve';
export const DENY_ACTION = 'gatehouse_deny';

/** The console's address for `path` (always starting with /console): GATEHOUSE_PUBLIC_URL, else where Gatehouse listens. */
export function consoleLink(ctx: AppContext, path: string): string {
  return `${publicBase(ctx)}${path}`;
}

const DECISION_WORDS: Record<string, string> = {
  APPROVED: 'approved', DENIED: 'denied', CANCELED: 'canceled', TIMED_OUT: 'canceled: nobody decided it in time',
};

const REVIEW_TYPES = new Set(['REQUEST_CREATED', 'REQUEST_STAGE_ADVANCED', 'REVIEW_REMINDER', 'REVIEW_ESCALATED']);

function nameOf(ctx: AppContext, userId: string | null): string {
  if (userId === null) return 'Gatehouse';
  const user = ctx.stores.users.get(userId);
  return user ? user.full_name || user.email : 'a former user';
}

/** How an ended item is named: `resource "Staging database" (read-only)`. */
const itemWords = (item: EndedItem) => `${item.item_type} "${item.item_name}"${item.access_level_name ? ` (${item.access_level_name})` : ''}`;

/** The recipient's own access the notice's data names (item_type, item_id, access_level_remote_id), as it stands now. */
function heldNow(ctx: AppContext, row: NotificationRow, data: Record<string, unknown>) {
  if (row.user_id === null) return undefined;
  const kind = data.item_type === 'group' ? 'group_user' : 'resource_user';
  return ctx.stores.access.live(kind, { principalId: row.user_id, itemId: String(data.item_id), level: String(data.access_level_remote_id ?? '') }, ctx.clock.now());
}

/** Who ended access and why, as a sentence (empty when Gatehouse did it on its own for no other reason). */
function whoAndWhy(cause: AccessChangeCause | null, by: { name: string } | null, uarName: string): string {
  const who = by ? by.name : 'Gatehouse';
  switch (cause?.type) {
    case 'ACCESS_REVIEW':
      return by
        ? `${who} revoked it in the access review "${uarName}".`
        : `The access review "${uarName}" revoked it: nobody answered for it by the deadline, and the review revokes what is left unanswered.`;
    case 'ACCESS_RULE': return 'You no longer match the access rule that gave it.';
    case 'ITEM_DELETED': return `${who} deleted it from Gatehouse.`;
    case 'OFFBOARDING': return by ? `${who} offboarded you.` : 'You were offboarded.';
    default: return by ? `${who} removed it.` : '';
  }
}

const STATUS_WORDS: Record<string, string> = { PENDING: 'waiting for review', APPROVED: 'approved', DENIED: 'denied', CANCELED: 'cancelled' };
/** A request's status as a person reads it in a message ("waiting for review", never "PENDING"). */
const statusInWords = (status: string): string => STATUS_WORDS[status] ?? status.toLowerCase().replace(/_/g, ' ');

/** The lines describing a request: who asks, for whom, what, how long, why, and where it stands. */
function requestLines(ctx: AppContext, requestId: string): { lines: string[]; requester: string; status: string; what: string } | null {
  const { requests, groups } = ctx.stores;
  const row = requests.get(requestId);
  if (!row) return null;
  const requester = nameOf(ctx, row.requester_id);
  const items = requests.items(requestId);
  const what = items.map((item) => `${item.item_name} (${item.access_level_name || 'default level'})`).join(', ');
  const target = row.target_user_id !== null
    ? (row.target_user_id === row.requester_id ? 'themselves' : nameOf(ctx, row.target_user_id))
    : `the group ${groups.get(row.target_group_id!)?.name ?? row.target_group_id}`;
  const lines = [
    `Requester: ${requester}`,
    `For: ${target}`,
    `Access: ${what}`,
    `Duration: ${durationInWords(row.duration_minutes)}`,
    `Reason: ${row.reason || '(none given)'}`,
    `Status: ${statusInWords(row.status)}`,
  ];
  return { lines, requester, status: row.status, what };
}

/**
 * Whether the recipient of a review notice can still act on the request now: a person who is one
 * of the acting reviewers of a waiting slot, or a channel whose owner's slot still waits. Buttons
 * are offered only then (a stage moved on, or someone else approved an OR slot: nothing left to click).
 * Administrators told of an escalation get none either: Slack's buttons decide at level REGULAR, and
 * theirs is an ADMIN decision, made in the console.
 */
function stillWaitsOn(ctx: AppContext, row: NotificationRow): boolean {
  const request = ctx.stores.requests.get(row.request_id!);
  if (!request) return false;
  const slots = waitingSlots(ctx, request, ctx.clock.now());
  if (row.user_id !== null) return slots.some((slot) => slot.reviewers.some((r) => r.userId === row.user_id));
  return slots.some((slot) => slot.ownerId !== null && ctx.stores.owners.get(slot.ownerId)?.reviewer_message_channel_id === row.message_channel_id);
}

/** What `row` says now. Throws nothing: a notice about something since deleted says so. */
export function render(ctx: AppContext, row: NotificationRow): Rendered {
  const data = JSON.parse(row.data) as Record<string, unknown>;
  const requestLink = (id: string) => ({ label: 'Open the request', url: consoleLink(ctx, `/console/requests/${id}`) });
  const home = { label: 'Open Gatehouse', url: consoleLink(ctx, '/console') };
  const request = row.request_id !== null ? requestLines(ctx, row.request_id) : null;
  const why = `You get this because ${row.reason}.`;
  if (row.request_id !== null && request === null) {
    return { subject: 'An access request was removed', lines: ['The request this notice was about no longer exists.', why], link: home, actionableRequestId: null };
  }
  const pendingReview = request !== null && request.status === 'PENDING' && REVIEW_TYPES.has(row.type) && stillWaitsOn(ctx, row) ? row.request_id : null;
  switch (row.type) {
    case 'REQUEST_CREATED':
    case 'REQUEST_STAGE_ADVANCED':
    case 'REVIEW_REMINDER':
    case 'REVIEW_ESCALATED': {
      const r = request!;
      const lead = {
        REQUEST_CREATED: `${r.requester} asks for access and you are a reviewer.`,
        REQUEST_STAGE_ADVANCED: `An access request from ${r.requester} reached a stage you review.`,
        REVIEW_REMINDER: `Reminder: an access request from ${r.requester} is still waiting for your review.`,
        REVIEW_ESCALATED: `An access request from ${r.requester} has waited too long for a review and was escalated to you.`,
      }[row.type];
      const subject = r.status === 'PENDING'
        ? `${row.type === 'REVIEW_REMINDER' ? 'Reminder: ' : ''}Review access request: ${r.what}`
        : `Access request ${r.status.toLowerCase()}: ${r.what}`;
      return { subject, lines: [lead, ...r.lines, why], link: requestLink(row.request_id!), actionableRequestId: pendingReview };
    }
    case 'REQUEST_DECIDED':
    case 'REVIEW_CLOSED': {
      const r = request!;
      const decision = DECISION_WORDS[String(data.decision)] ?? String(data.decision).toLowerCase();
      const lead = row.type === 'REQUEST_DECIDED'
        ? `The access request for ${r.what} was ${decision}.`
        : `The access request from ${r.requester} was ${decision}. Nothing is left for you to review.`;
      // The decider's comment (a denial's reason) was written with the decision.
      const decided = ctx.stores.requests.get(row.request_id!)!;
      const said = ctx.stores.requests.comments(row.request_id!).filter((c) => c.created_at === decided.updated_at).at(-1);
      const comment = said ? [`${said.user_full_name || said.user_email} commented: ${said.comment}`] : [];
      // Approved by a rule (on call): say which, and that the access ends with the shift.
      // Or some of its items, the rest reviewed: each says so (and one whose shift ended meanwhile, that it was not granted).
      const because = decided.approval_reason !== null ? [`It was ${decided.approval_reason}; the access ends no later than that.`]
        : ctx.stores.requests.items(decided.id).flatMap((item) => item.approval_reason === null ? [] : [
          item.approval_reason.startsWith('not granted') ? `${item.item_name}: ${item.approval_reason}.` : `${item.item_name} was ${item.approval_reason}; that access ends no later than that.`,
        ]);
      return { subject: `Access request ${decision.split(':')[0]}: ${r.what}`, lines: [lead, ...because, ...comment, ...r.lines, why], link: requestLink(row.request_id!), actionableRequestId: null };
    }
    case 'REQUEST_COMMENTED': {
      const r = request!;
      const comment = ctx.stores.requests.comments(row.request_id!).find((c) => c.id === data.comment_id);
      const author = nameOf(ctx, typeof data.author_id === 'string' ? data.author_id : null);
      return {
        subject: `${author} commented on the access request for ${r.what}`,
        lines: [`${author} wrote:`, comment?.comment ?? '(the comment was removed)', ...r.lines, why],
        link: requestLink(row.request_id!), actionableRequestId: null,
      };
    }
    case 'ACCESS_EXPIRING': {
      // The time left is the time left now, and the access is read now: extended or ended since, the notice says so.
      const ends = String(data.expiration_date);
      const item = itemWords(data as unknown as EndedItem);
      const now = ctx.clock.now();
      const held = heldNow(ctx, row, data);
      const extend = { label: 'Extend my access', url: consoleLink(ctx, '/console/access') };
      if (held === undefined) {
        return { subject: `Your access to ${String(data.item_name)} has ended`, lines: [`Your access to ${item} has ended.`, why], link: extend, actionableRequestId: null };
      }
      if (held.expiration_date !== ends) {
        return {
          subject: `Your access to ${String(data.item_name)} was extended`,
          lines: [`Your access to ${item} was extended: ${held.expiration_date === null ? 'it no longer ends' : `it now ends on ${instantInWords(held.expiration_date)}`}.`, why],
          link: extend, actionableRequestId: null,
        };
      }
      const left = spanInWords((Date.parse(ends) - now.getTime()) / 60_000);
      return {
        subject: `Your access to ${String(data.item_name)} ends in ${left}`,
        lines: [`Your access to ${item} ends in ${left}, on ${instantInWords(ends)}.`, 'To keep it, ask to extend it from My access.', why],
        link: extend, actionableRequestId: null,
      };
    }
    case 'ACCESS_REMOVED': {
      const by = data.by as { name: string } | null;
      const cause = data.cause as AccessChangeCause | null;
      const browse = { label: 'Open Gatehouse', url: consoleLink(ctx, '/console/access') };
      if (cause?.type === 'OFFBOARDING') {
        const items = data.items as EndedItem[];
        const count = Number(data.count);
        const more = count - items.length;
        return {
          subject: `Your access was removed: ${count} item${count === 1 ? '' : 's'}`,
          lines: [
            `${whoAndWhy(cause, by, '')} Gatehouse removed all the access you held (${count} item${count === 1 ? '' : 's'}):`,
            ...items.map((one) => `• ${itemWords(one)}`),
            ...(more > 0 ? [`• and ${more} more`] : []),
            why,
          ],
          link: home, actionableRequestId: null,
        };
      }
      const item = itemWords(data as unknown as EndedItem);
      if (data.expired === true) {
        // Ended by a new grant of the same access (the old row is ended first): say they have it again.
        const again = heldNow(ctx, row, data);
        const now = again === undefined ? 'To have it again, ask for it in Gatehouse.'
          : `You have it again now, ${again.expiration_date === null ? 'with no end' : `until ${instantInWords(again.expiration_date)}`}.`;
        return {
          subject: `Your access to ${String(data.item_name)} has ended`,
          lines: [`Your access to ${item} ended on ${instantInWords(String(data.expiration_date))}, when the time it was given for was over.`, now, why],
          link: browse, actionableRequestId: null,
        };
      }
      return {
        subject: `Your access to ${String(data.item_name)} was removed`,
        lines: [`Your access to ${item} was removed on ${instantInWords(row.created_at)}. ${whoAndWhy(cause, by, String(data.uar_name ?? ''))}`.trimEnd(), why],
        link: browse, actionableRequestId: null,
      };
    }
    case 'PROPAGATION_FAILED':
      return {
        subject: `Access could not be applied in ${String(data.app_name ?? 'a connected system')}`,
        lines: [
          `Gatehouse could not apply an access change in ${String(data.app_name ?? 'a connected system')}: ${String(data.error ?? 'unknown error')}.`,
          ...(typeof data.detail === 'string' ? [data.detail] : []),
          'It will not be retried on its own; an administrator can retry it once the system is reachable.', why,
        ],
        link: home, actionableRequestId: null,
      };
    case 'ON_CALL_SYNC_FAILING':
      return {
        subject: `On-call schedule ${String(data.schedule_name)} cannot be read from ${String(data.provider)}`,
        lines: [
          `Gatehouse has failed ${String(data.failures)} times in a row to read the on-call schedule ${String(data.schedule_name)} from ${String(data.provider)}: ${String(data.error)}.`,
          'Until it works again nobody is added to or extended in the groups that follow it; memberships already given end at their shifts\' ends. It keeps retrying, waiting longer each time.',
          why,
        ],
        link: { label: 'Open the schedule', url: consoleLink(ctx, '/console/on-call') }, actionableRequestId: null,
      };
    case 'UAR_ASSIGNED':
    case 'UAR_REMINDER': {
      // Read when sent: the review's policy may have been chosen, items decided and the review closed
      // since the notice was queued.
      const uarId = String(data.uar_id);
      const uar = ctx.stores.accessReviews.get(uarId);
      if (!uar) return { subject: 'An access review was removed', lines: ['The access review this notice was about no longer exists.', why], link: home, actionableRequestId: null };
      const { closed_at, unanswered_decision } = ctx.stores.uarDecisions.policy(uarId);
      const fate = `items nobody answers by then are ${unanswered_decision === 'REVOKE' ? 'revoked' : 'kept'}`;
      const link = { label: 'Open the review', url: consoleLink(ctx, `/console/reviews/${uarId}`) };
      const count = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
      if (row.type === 'UAR_ASSIGNED') {
        const mine = row.user_id === null ? { assigned: 0, unanswered: 0 } : ctx.stores.uarDecisions.countsFor(uarId, row.user_id);
        return {
          subject: `Access review "${uar.name}": ${count(mine.assigned)} for you to review`,
          lines: [
            `${nameOf(ctx, typeof data.started_by === 'string' ? data.started_by : null)} started the access review "${uar.name}" and asks you to review ${count(mine.assigned)}: keep, revoke or decide later, for each person's access.`,
            closed_at !== null
              ? `The review closed on ${instantInWords(closed_at)}; nothing is left for you to decide.`
              : `${mine.unanswered} of them wait for your answer. The deadline is ${instantInWords(uar.deadline)}; ${fate}.`,
            why,
          ],
          link, actionableRequestId: null,
        };
      }
      // A reviewer counts their own rows; a manager (data.reports) their reports' rows.
      const whose = Array.isArray(data.reports) ? (data.reports as string[]) : row.user_id !== null ? [row.user_id] : [];
      const waiting = count(whose.reduce((sum, id) => sum + ctx.stores.uarDecisions.countsFor(uarId, id).unanswered, 0));
      const who = Array.isArray(data.reports) ? `${whose.map((id) => nameOf(ctx, id)).join(', ')} (who report to you)` : 'you';
      const left = spanInWords((Date.parse(uar.deadline) - ctx.clock.now().getTime()) / 60_000);
      return {
        subject: closed_at !== null ? `Access review "${uar.name}" has closed` : `Access review "${uar.name}" ends in ${left}: ${waiting} still wait`,
        lines: [
          closed_at !== null
            ? `The access review "${uar.name}" closed on ${instantInWords(closed_at)}; nothing is left to decide.`
            : `The access review "${uar.name}" ends in ${left}, on ${instantInWords(uar.deadline)}. ${waiting} that ${who} review still wait for an answer; ${fate}.`,
          why,
        ],
        link, actionableRequestId: null,
      };
    }
    case 'EMAIL_CHANGED': {
      const by = typeof data.by === 'string' && data.by !== '' ? data.by : 'An administrator or your identity provider';
      return {
        subject: 'The email of your Gatehouse account changed',
        lines: [
          `${by} changed the email of the Gatehouse account of ${nameOf(ctx, row.user_id)} from ${String(data.previous_email)} to ${String(data.email)}.`,
          'Its console sessions have ended, and sign-in links and invitations sent before no longer work; sign in again with the new address.',
          'If you did not expect this, tell your Gatehouse administrators at once.',
          why,
        ],
        link: home, actionableRequestId: null,
      };
    }
    case 'OFFBOARDING_REFUSED': {
      const person = ctx.stores.users.get(String(data.user_id));
      const who = person ? `${person.full_name} (${person.email})` : 'a former user';
      return {
        subject: `Your identity provider asked to offboard ${who}`,
        lines: [
          `Your identity provider asked over SCIM to make ${who} ${String(data.status)}. Gatehouse refused: ${String(data.why)}.`,
          'If they are leaving, offboard them on their page in the console (People); otherwise nothing needs doing.',
          why,
        ],
        link: { label: 'Open People', url: consoleLink(ctx, '/console/people') },
        actionableRequestId: null,
      };
    }
    case 'BREAK_GLASS_USED':
    case 'BREAK_GLASS_ENDED':
    case 'BREAK_GLASS_REVIEWED':
    case 'BREAK_GLASS_REVIEW_REMINDER':
    case 'BREAK_GLASS_REVIEW_ESCALATED':
      return renderBreakGlass(ctx, row, String(data.break_glass_id), why);
    case 'DIGEST': {
      const included = ctx.stores.notifications.inDigest(row.id);
      const lines = [`${included.length} notice${included.length === 1 ? '' : 's'} since your last digest:`];
      for (const notice of included) {
        const one = render(ctx, notice);
        lines.push(`• ${one.subject} — ${one.link.url}`);
      }
      return { subject: `Your Gatehouse digest: ${included.length} notice${included.length === 1 ? '' : 's'}`, lines: [...lines, why], link: home, actionableRequestId: null };
    }
    default:
      return { subject: 'Gatehouse notice', lines: [why], link: home, actionableRequestId: null };
  }
}

/**
 * A break-glass notice: who, what, for how long, why and the incident, and where its review stands —
 * read when sent, so a reminder for a review decided meanwhile says so.
 */
function renderBreakGlass(ctx: AppContext, row: NotificationRow, id: string, why: string): Rendered {
  const home = { label: 'Open Gatehouse', url: consoleLink(ctx, '/console') };
  const bg = ctx.stores.breakGlass.get(id);
  if (!bg) return { subject: 'A break-glass was removed', lines: ['The break-glass this notice was about no longer exists.', why], link: home, actionableRequestId: null };
  const who = nameOf(ctx, bg.user_id);
  const what = `${bg.item_type} "${bg.item_name}"${bg.access_level_name ? ` (${bg.access_level_name})` : ''}`;
  const ended = bg.ended_at !== null && bg.ended_at < bg.ends_at ? bg.ended_at : bg.ends_at;
  const facts = [
    `Who: ${who}`,
    `Access: ${what}`,
    `For: ${durationInWords(bg.duration_minutes)}, from ${instantInWords(bg.started_at)} until ${instantInWords(ended)}`,
    `Reason: ${bg.reason}`,
    ...(bg.incident_id !== null ? [`Incident: ${bg.incident_id}`] : []),
    `Review: ${bg.review_state === 'OPEN' ? 'waiting for the item\'s owners' : `${bg.review_state === 'JUSTIFIED' ? 'justified' : 'not justified'} by ${nameOf(ctx, bg.reviewed_by_user_id)}${bg.review_comment ? `: ${bg.review_comment}` : ''}`}`,
  ];
  const review = { label: bg.review_state === 'OPEN' ? 'Review it' : 'Open Gatehouse', url: consoleLink(ctx, `/console/break-glass/${id}`) };
  const plain = (subject: string, lead: string[], link = review): Rendered => ({ subject, lines: [...lead, ...facts, why], link, actionableRequestId: null });
  switch (row.type) {
    case 'BREAK_GLASS_USED':
      return plain(`Break-glass: ${who} took ${bg.item_name} for ${durationInWords(bg.duration_minutes)}`,
        [`${who} broke glass: they gave themselves access to ${what} without an approval. Its owners review it afterwards; not justified ends it at once.`]);
    case 'BREAK_GLASS_ENDED':
      return plain(`Your break-glass on ${bg.item_name} has ended`,
        [`The access you took by breaking glass on ${what} has ended. It cannot be extended: if you still need it, break glass again (and it is reviewed again), or ask for it.`]);
    case 'BREAK_GLASS_REVIEWED':
      return plain(`Break-glass on ${bg.item_name} ${bg.review_state === 'NOT_JUSTIFIED' ? 'found not justified' : 'reviewed: justified'}`,
        [bg.review_state === 'NOT_JUSTIFIED'
          ? `${nameOf(ctx, bg.reviewed_by_user_id)} found ${row.user_id === bg.user_id ? 'your' : `${who}'s`} break-glass on ${what} not justified; the access it gave ended then.`
          : `${nameOf(ctx, bg.reviewed_by_user_id)} found ${row.user_id === bg.user_id ? 'your' : `${who}'s`} break-glass on ${what} justified.`]);
    case 'BREAK_GLASS_REVIEW_REMINDER':
      return plain(bg.review_state === 'OPEN' ? `Reminder: review ${who}'s break-glass on ${bg.item_name}` : `Break-glass on ${bg.item_name} was reviewed`,
        [bg.review_state === 'OPEN' ? `${who}'s break-glass on ${what} still waits for its owners' review.` : 'It was reviewed meanwhile; nothing is left for you to do.']);
    default:
      return plain(bg.review_state === 'OPEN' ? `Escalated: ${who}'s break-glass on ${bg.item_name} is not reviewed` : `Break-glass on ${bg.item_name} was reviewed`,
        [bg.review_state === 'OPEN' ? `${who}'s break-glass on ${what} waited past its owners' review time; an administrator may review it.` : 'It was reviewed meanwhile; nothing is left for you to do.']);
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Slack's mrkdwn needs only these three escaped. */
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The email form: plain text and HTML with the same content. */
export function toEmail(rendered: Rendered): { subject: string; text: string; html: string } {
  const text = [...rendered.lines, '', `${rendered.link.label}: ${rendered.link.url}`].join('\n\n');
  const html = '<!doctype html><html><body style="font-family:sans-serif">'
    + rendered.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')
    + `<p><a href="${escapeHtml(rendered.link.url)}">${escapeHtml(rendered.link.label)}</a></p></body></html>`;
  return { subject: rendered.subject, text, html };
}

/** The Slack form: a section per paragraph and, for a review still open, Approve and Deny buttons. */
export function toSlack(rendered: Rendered): SlackMessage {
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: rendered.subject.slice(0, 150) } },
    { type: 'section', text: { type: 'mrkdwn', text: escapeSlack(rendered.lines.join('\n')).slice(0, 3000) } },
  ];
  const open = { type: 'button', action_id: 'gatehouse_open', text: { type: 'plain_text', text: rendered.link.label }, url: rendered.link.url };
  if (rendered.actionableRequestId !== null) {
    blocks.push({
      type: 'actions', block_id: `gatehouse_review:${rendered.actionableRequestId}`,
      elements: [
        { type: 'button', action_id: APPROVE_ACTION, style: 'primary', text: { type: 'plain_text', text: 'Approve' }, value: rendered.actionableRequestId },
        { type: 'button', action_id: DENY_ACTION, style: 'danger', text: { type: 'plain_text', text: 'Deny' }, value: rendered.actionableRequestId },
        open,
      ],
    });
  } else {
    blocks.push({ type: 'actions', elements: [open] });
  }
  return { text: rendered.subject, blocks };
}
