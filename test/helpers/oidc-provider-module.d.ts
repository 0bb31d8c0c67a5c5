// oidc-provider ships no types; the tests use a handful of its calls (test/helpers/oidc-provider.ts).
declare module 'oidc-provider' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Provider: any;
  export default Provider;
}
