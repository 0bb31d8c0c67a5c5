// The version the CLI and logs report; kept in step with package.json by hand at release.
export const VERSION = '0.1.0';
