// The /docs page: Swagger UI (swagger-ui-dist) rendering /openapi.json, every file served by
// Gatehouse itself so the page works with no network. The viewer's files come in as text
// (esbuild inlines them in the executable; src/dev/sql-hooks.mjs reads them under tsx).
import viewerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' };
import viewerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' };

// Absolute paths, so /docs and /docs/ both find the files.
const START = `
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#docs',
    deepLinking: true,
    // The default would send the document to an online validator for a badge.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    // Shows x-gatehouse-extension on Gatehouse's own operations and fields.
    showExtensions: true,
    persistAuthorization: false,
  });
});
`;

/** The viewer's script: Swagger UI's bundle, then the lines that start it. */
export const VIEWER_JS = `${viewerBundle}\n${START}`;
export const VIEWER_CSS = viewerCss;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/viewer.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/viewer.js"></script>
</body>
</html>
`;

/**
 * Only Gatehouse's own origin: the page can load nothing from elsewhere, even if a future viewer
 * version tried to. Swagger UI sets style attributes and draws icons from data: URLs.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
