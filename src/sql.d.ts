// Lets TypeScript import migration files: esbuild's text loader (build) and src/dev/sql-hooks.mjs (tsx) both turn them into a default-exported string.
declare module '*.sql' {
  const text: string;
  export default text;
}
