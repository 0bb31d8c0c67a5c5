// Where the public reference documents sit: ../shared/reference beside the checkout, present in CI and in
// the developers' workplace, absent in a plain clone. The one place that knows the path; every reader
// (the API conformance test, the on-call stand-ins' answer checks) skips what needs a document that is absent.
import { fileURLToPath } from 'node:url';

/** The reference directory (ends with a slash); it may not exist. */
export const REFERENCE_DIR = fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
