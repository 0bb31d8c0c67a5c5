// The console's HTML: the one shell every page address serves (its script draws the page), and the small
// pages a sign-in step answers with, each with the headers every console page carries.
import type { AppContext } from '../../context.ts';
import { emailConfigured } from '../web-sessions/emailed-links.ts';
import { oidcEnabled } from '../web-sessions/oidc.ts';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
export const PAGE_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  // Same-origin: our own writes keep a Referer for the CSRF check; other sites learn nothing.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function shell(ctx: AppContext): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body data-sso="${oidcEnabled(ctx) ? 'on' : 'off'}" data-email="${emailConfigured(ctx) ? 'on' : 'off'}">
<div id="app"><main class="page"><p>Loading Gatehouse…</p></main></div>
<noscript><p class="page">The Gatehouse console needs JavaScript.</p></noscript>
</body>
</html>`;
}

/**
 * A page of its own for what a sign-in step came to, in words, and a way back: a failure (`alert`),
 * or what a form posted without JavaScript did (`status`).
 */
export function messagePage(title: string, message: string, role: 'status' | 'alert'): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main class="page narrow"><h1>${escapeHtml(title)}</h1><p class="${role === 'alert' ? 'error' : 'notice'}" role="${role}">${escapeHtml(message)}</p>
<p><a href="/console">Go to the sign-in page</a></p></main></body>
</html>`;
}

