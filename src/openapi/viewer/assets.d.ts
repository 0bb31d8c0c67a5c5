// The /docs viewer's files, imported as text (`with { type: 'text' }`): esbuild inlines them in the
// executable, src/dev/sql-hooks.mjs reads them under tsx.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string;
  export default text;
}
