// How deep parsed JSON may nest, and one iterative walk that checks it: no walk over JSON from a client
// or a remote system may recurse per level, or a body nested thousands deep overflows the stack.

/**
 * The deepest nesting of objects and lists accepted in JSON from outside (a request body, a remote
 * system's answer): the top-level object or list is depth 1. No Gatehouse schema nests a tenth as deep;
 * the bound keeps every later walk (validation, comparison, serialisation) shallow.
 */
export const MAX_JSON_DEPTH = 64;

/** What refusing a too-deep document says, after the path of the place that goes too deep. */
export const TOO_DEEP = `nests objects and lists more than ${MAX_JSON_DEPTH} deep, the limit`;

export type JsonFault = { path: string; fault: 'too-deep' | 'ill-formed-text' };

/**
 * Walks `value` without recursion, returning the first fault: an object or list deeper than `maxDepth`,
 * or (when `checkText` is given) a string or key it refuses. `path` is dotted ('' for the whole value).
 * Each member is visited once, so the walk is as long as the value is large; null when nothing is wrong.
 */
export function findJsonFault(value: unknown, checkText?: (text: string) => boolean, maxDepth = MAX_JSON_DEPTH): JsonFault | null {
  const stack: { value: unknown; path: string; depth: number; key?: string }[] = [{ value, path: '', depth: 1 }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (checkText && at.key !== undefined && !checkText(at.key)) return { path: at.path, fault: 'ill-formed-text' };
    if (typeof at.value === 'string') {
      if (checkText && !checkText(at.value)) return { path: at.path, fault: 'ill-formed-text' };
      continue;
    }
    if (at.value === null || typeof at.value !== 'object') continue;
    if (at.depth > maxDepth) return { path: at.path, fault: 'too-deep' };
    const isList = Array.isArray(at.value);
    const entries = isList ? (at.value as unknown[]).map((item, i) => [String(i), item] as const) : Object.entries(at.value);
    // Pushed last to first, so members are visited in order and the fault found is the first in the text.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      const path = at.path === '' ? key : `${at.path}.${key}`;
      stack.push({ value: item, path, depth: at.depth + 1, ...(!isList && { key }) });
    }
  }
  return null;
}

/** Whether `value` nests no deeper than MAX_JSON_DEPTH (for JSON from remote systems: too deep is not an answer). */
export const withinJsonDepth = (value: unknown): boolean => findJsonFault(value) === null;
