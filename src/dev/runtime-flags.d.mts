// Types for runtime-flags.mjs (plain JS, so build.mjs can import it without tsx).
export declare const RUNTIME_FLAGS: readonly string[];
