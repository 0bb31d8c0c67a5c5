// Shared pieces of the console: navigation, loading a page's data, showing errors in words, small formatters.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Me, type Schema } from './api.ts';

/** Says that who is signed in has changed (their name, say): the app reads `/console/session` again. */
export function sessionChanged(): void {
  dispatchEvent(new Event('gatehouse-session-changed'));
}

/** Goes to a console address without reloading the page. */
export function navigate(to: string): void {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** A link inside the console (a real <a href>, so it opens in a new tab too). */
export function Link(props: { href: string; children: ComponentChildren; class?: string }) {
  return (
    <a href={props.href} class={props.class} onClick={(e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(props.href);
    }}>{props.children}</a>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

/** Polling a page that is not settled yet: the first look again after this long, doubling up to the most. */
export const POLL_FIRST_MS = 1_000;
export const POLL_MOST_MS = 15_000;

/**
 * Runs `load` when `key` changes; keeps its result or its error (in words). With `settled`, a page whose
 * data is not settled yet (a change still being carried to a system, a sync under way) loads again by
 * itself — after 1 s, then 2, 4, 8, at most every 15 s — until `settled` says it is, so nobody reloads
 * to see it move. The data on screen stays while it loads again (no flash of "Loading…"); the back-off
 * starts over when the data changes or the page reloads it.
 */
export function useLoad<T>(load: () => Promise<T>, key: unknown[], settled?: (data: T) => boolean): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const delay = useRef(POLL_FIRST_MS);
  const last = useRef<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setError(undefined);
    load().then((value) => {
      if (!live) return;
      setData(value);
      if (!settled) return;
      const seen = JSON.stringify(value);
      if (seen !== last.current) delay.current = POLL_FIRST_MS;
      last.current = seen;
      if (settled(value)) return;
      const wait = delay.current;
      delay.current = Math.min(wait * 2, POLL_MOST_MS);
      timer = setTimeout(() => live && setTick((n) => n + 1), wait);
    }, (err: unknown) => live && setError(messageOf(err)));
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...key, tick]);
  const reload = useCallback(() => {
    delay.current = POLL_FIRST_MS;
    setTick((n) => n + 1);
  }, []);
  return { data, error, reload };
}

export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.status === 403 ? `Not allowed: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}

/** An error in words, announced to screen readers. */
export function Problem(props: { message: string | undefined }) {
  return props.message ? <p class="error" role="alert">{props.message}</p> : null;
}

/** What a page shows while its data loads or when it failed. */
export function Pending<T>(props: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (props.loaded.error) return <Problem message={props.loaded.error} />;
  if (props.loaded.data === undefined) return <p aria-live="polite">Loading…</p>;
  return <>{props.children(props.loaded.data)}</>;
}

/** A button running an async action: disabled while it runs, its failure shown beside it. */
export function useAction(): { busy: boolean; error: string | undefined; run: (action: () => Promise<unknown>) => Promise<boolean>; setError: (m: string | undefined) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/** A moment as people read it, with its time zone ("Nov 29, 2026, 09:15 GMT+1"): a time without a zone is a guess. */
export const when = (iso: string | null | undefined): string =>
  (iso ? new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }) : 'never');

/** Minutes as people say them: "2 hours", "3 days", "indefinitely" for -1 or 0. */
export function minutes(value: number | undefined | null): string {
  if (value === undefined || value === null || value <= 0) return 'indefinitely';
  if (value % 1440 === 0) return `${value / 1440} day${value === 1440 ? '' : 's'}`;
  if (value % 60 === 0) return `${value / 60} hour${value === 60 ? '' : 's'}`;
  return `${value} minutes`;
}

/** The durations a form offers for an access: these, up to the item's longest, with its suggested and longest added. */
export const DURATIONS = [60, 240, 1440, 7 * 1440, 30 * 1440, 90 * 1440];

/**
 * The durations offered for items whose longest grant is `max` (undefined: no limit) and whose suggested
 * duration is `suggested` (recommended_duration_minutes; -1 indefinite, 0 or undefined none): the request
 * form and an admin's Grant form offer the same. Ascending; -1 (indefinitely) is never in the list.
 */
export function durationChoices(max: number | undefined, suggested: number | undefined): number[] {
  const offered = new Set(DURATIONS.filter((d) => max === undefined || d <= max));
  if (suggested !== undefined && suggested > 0 && (max === undefined || suggested <= max)) offered.add(suggested);
  if (max !== undefined) offered.add(max);
  return [...offered].sort((a, b) => a - b);
}

/** One duration's words in such a list: "4 hours (suggested)", "2 hours (the most allowed)". */
export function durationChoice(d: number, max: number | undefined, suggested: number | undefined): string {
  const notes = [d === suggested && 'suggested', d === max && !DURATIONS.includes(d) && 'the most allowed'].filter(Boolean);
  return `${d === -1 ? 'indefinitely' : minutes(d)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/**
 * An item's longest grant by request and its suggested duration, from its default request configuration
 * (else its top-level fields): undefined where it sets none.
 */
export function requestBounds(item: Schema<'Resource'> | Schema<'Group'> | undefined): { max: number | undefined; suggested: number | undefined } {
  const configuration = (item?.request_configurations ?? []).find((c) => !c.condition) ?? item?.request_configurations?.[0];
  const max = configuration?.max_duration_minutes ?? item?.max_duration;
  const suggested = configuration?.recommended_duration_minutes ?? item?.recommended_duration;
  return { max: typeof max === 'number' && max > 0 ? max : undefined, suggested: typeof suggested === 'number' && suggested !== 0 ? suggested : undefined };
}

/** What a form preselects: the suggested duration when it may be given, else a day (or the longest allowed, if shorter). */
export function defaultDuration(max: number | undefined, suggested: number | undefined): number {
  if (suggested !== undefined && suggested > 0 && (max === undefined || suggested <= max)) return suggested;
  if (suggested === -1 && max === undefined) return -1;
  return max !== undefined && max < 1440 ? max : 1440;
}

export const isAdmin = (me: Me): boolean => me.user.organization_role === 'ADMIN';

/** A page's heading and content, the heading focused on arrival so screen readers announce it. */
export function Page(props: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Gatehouse`;
  }, [props.title]);
  return (
    <>
      <h1 tabIndex={-1} id="page-title">{props.title}</h1>
      {props.children}
    </>
  );
}

export function AdminOnly(props: { me: Me; children: ComponentChildren }) {
  if (isAdmin(props.me)) return <>{props.children}</>;
  return <p class="error" role="alert">This page is for organization admins. Your role is {roleWords(props.me.user.organization_role)}.</p>;
}

/** An API enum spelled as words for people: PENDING_MANUAL_PROPAGATION → "Pending manual propagation". */
export function inWords(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge badge-${props.status.toLowerCase()}`}>{inWords(props.status)}</span>;
}

/** Whether a holding has reached the system its connector keeps, in words (the API's PropagationStatusEnum). */
export function propagationWords(status: string | undefined | null): string {
  if (!status || status === 'SUCCESS') return 'in effect';
  if (status === 'PENDING') return 'being carried to the system';
  if (status === 'PENDING_MANUAL_PROPAGATION') return 'waiting for someone to set it up by hand';
  return `not carried yet: ${inWords(status.replace(/^ERR_/, '')).toLowerCase()}`;
}

const USER_STATUS: Record<string, string> = { ACTIVE: 'active', SUSPENDED: 'suspended', DEPROVISIONED: 'offboarded', DELETED: 'deleted' };
/** A person's hr_idp_status in words. */
export const userStatusWords = (status: string | undefined): string => (status ? USER_STATUS[status] ?? inWords(status).toLowerCase() : 'active');
/** An organization_role in words. */
export const roleWords = (role: string): string => (role === 'ADMIN' ? 'admin' : 'member');

/** What a confirmation asks: its question, what ends (in words), the button that acts, and the act. */
export interface ConfirmRequest {
  /** The question, naming who and what: "Revoke Alex Doe's access to Payroll?" */
  title: string;
  /** What ends, and anything else the person should know before they confirm. */
  body?: ComponentChildren;
  /** The confirming button's words: "Revoke access", "Offboard Alex Doe". */
  confirm: string;
  /** Runs only on confirmation; its failure is shown in the dialog, which stays open. */
  action: () => Promise<unknown>;
  /** After the action succeeded and the dialog closed (reload the page's data here). */
  done?: () => void;
}

/**
 * The one confirmation for destructive actions: `ask(request)` opens a modal `alertdialog` that names
 * what ends and acts only when its button is pressed, once (a second press while it runs does nothing).
 * Render `dialog` somewhere on the page.
 */
export function useConfirm(): { ask: (request: ConfirmRequest) => void; dialog: ComponentChildren } {
  const [request, setRequest] = useState<ConfirmRequest | undefined>(undefined);
  // The button that opened the dialog gets focus back when it closes (Escape, Cancel or done), so a
  // keyboard user goes on from where they were, not from the top of the page.
  const opener = useRef<HTMLElement | null>(null);
  const close = () => {
    setRequest(undefined);
    const back = opener.current;
    setTimeout(() => (back?.isConnected ? back : document.getElementById('page-title'))?.focus({ preventScroll: !back?.isConnected }), 0);
  };
  const ask = (next: ConfirmRequest) => {
    opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    setRequest(next);
  };
  const dialog = request ? <ConfirmDialog key={request.title} request={request} onClose={close} /> : null;
  return { ask, dialog };
}

function ConfirmDialog(props: { request: ConfirmRequest; onClose: () => void }) {
  const { request, onClose } = props;
  const ref = useRef<HTMLDialogElement>(null);
  // A ref, not state: two clicks in one turn both see state's old value.
  const running = useRef(false);
  const action = useAction();
  useEffect(() => {
    const dialog = ref.current!;
    // Modal: the rest of the page is inert, Escape cancels, focus starts on Cancel (the safe choice).
    dialog.showModal();
    return () => dialog.close();
  }, []);
  const confirm = async () => {
    if (running.current) return;
    running.current = true;
    const ok = await action.run(request.action);
    running.current = false;
    if (ok) {
      onClose();
      request.done?.();
    }
  };
  return (
    <dialog ref={ref} class="confirm" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" aria-describedby="confirm-body"
      onCancel={(e) => {
        e.preventDefault();
        if (!running.current) onClose();
      }}>
      <h2 id="confirm-title">{request.title}</h2>
      <div id="confirm-body">{request.body}</div>
      <Problem message={action.error} />
      <div class="actions">
        <button type="button" onClick={onClose} disabled={action.busy}>Cancel</button>
        <button type="button" class="danger" onClick={confirm} disabled={action.busy} aria-busy={action.busy}>{action.busy ? 'Working…' : request.confirm}</button>
      </div>
    </dialog>
  );
}
