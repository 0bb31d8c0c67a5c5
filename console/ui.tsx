// Shared pieces of the console: navigation, loading a page's data, showing errors in words, small formatters.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, type Me } from './api.ts';

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

/** Runs `load` when `key` changes; keeps its result or its error (in words). */
export function useLoad<T>(load: () => Promise<T>, key: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(undefined);
    load().then((value) => live && setData(value), (err: unknown) => live && setError(messageOf(err)));
    return () => {
      live = false;
    };
  }, [...key, tick]);
  return { data, error, reload: useCallback(() => setTick((n) => n + 1), []) };
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

export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never');

/** Minutes as people say them: "2 hours", "3 days", "indefinitely" for -1 or 0. */
export function minutes(value: number | undefined | null): string {
  if (value === undefined || value === null || value <= 0) return 'indefinitely';
  if (value % 1440 === 0) return `${value / 1440} day${value === 1440 ? '' : 's'}`;
  if (value % 60 === 0) return `${value / 60} hour${value === 60 ? '' : 's'}`;
  return `${value} minutes`;
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
  return <p class="error" role="alert">This page is for organization admins. Your role is {props.me.user.organization_role}.</p>;
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge badge-${props.status.toLowerCase()}`}>{props.status}</span>;
}
