// Polka's route search, indexed: trouter tests every registered route's pattern in turn (~300 of them for
// a GET under /v1); this finds the same routes, in the same order, testing only those whose leading
// literal segments the path has.
import type { Polka } from 'polka';
import type { GatehouseRequest } from './types.ts';

/** A route as trouter keeps it (its `routes` array, which Polka's `find` walks). */
interface TrouterRoute {
  keys: string[] | false;
  pattern: RegExp;
  midx: number;
  handlers: unknown[];
}

/** trouter's method numbers (0: every method, `use`). */
const METHOD_INDEX: Record<string, number> = { '': 0, GET: 1, HEAD: 2, PATCH: 3, OPTIONS: 4, CONNECT: 5, DELETE: 6, TRACE: 7, POST: 8, PUT: 9 };

/**
 * A literal segment at the start of a regexparam pattern's source (`\/users`), followed by the next
 * segment's slash, the loose end's look-ahead or the end: letters, digits, `_`, `-` only, so that what
 * the pattern matches there is exactly that text, case aside (the patterns are /i, ASCII folding).
 */
const LITERAL = /^\\\/([A-Za-z0-9_-]+)(?=\\\/|\(\?=|$)/;

/** Up to two leading literal segments of `route`'s pattern, lower-cased (fewer when not plain: it is then tested on more paths, never on fewer). */
function leadingLiterals(route: TrouterRoute): string[] {
  if (route.keys === false || !route.pattern.flags.includes('i') || !route.pattern.source.startsWith('^')) return [];
  let source = route.pattern.source.slice(1);
  const literals: string[] = [];
  while (literals.length < 2) {
    const match = LITERAL.exec(source);
    if (!match) break;
    literals.push(match[1]!.toLowerCase());
    source = source.slice(match[0].length);
  }
  return literals;
}

/** The first two segments of a path, lower-cased (`''` when absent). */
function leadingSegments(path: string): [string, string] {
  const end0 = path.indexOf('/', 1);
  if (end0 === -1) return [path.slice(1).toLowerCase(), ''];
  const end1 = path.indexOf('/', end0 + 1);
  return [path.slice(1, end0).toLowerCase(), path.slice(end0 + 1, end1 === -1 ? undefined : end1).toLowerCase()];
}

/**
 * Makes `app` find a request's routes through an index by leading literal segments. The routes a path
 * can match are those with no leading literal, those whose one literal is the path's first segment, and
 * those whose two are its first two: each bucket keeps registration order, and the search over that
 * union is trouter's own (same handlers in the same order, same params). Routes added later rebuild it.
 */
export function indexRoutes(app: Polka<GatehouseRequest>): void {
  const routes = (app as unknown as { routes: TrouterRoute[] }).routes;
  let indexed = -1;
  let anywhere: TrouterRoute[] = [];
  let byFirst = new Map<string, TrouterRoute[]>();
  let byFirstTwo = new Map<string, TrouterRoute[]>();

  function build(): void {
    const order = new Map(routes.map((route, i) => [route, i]));
    const merged = (...lists: TrouterRoute[][]) => lists.flat().sort((a, b) => order.get(a)! - order.get(b)!);
    const generic: TrouterRoute[] = [];
    const first = new Map<string, TrouterRoute[]>();
    const firstTwo = new Map<string, TrouterRoute[]>();
    for (const route of routes) {
      const literals = leadingLiterals(route);
      const [bucket, key] = literals.length === 0 ? [null, ''] : literals.length === 1 ? [first, literals[0]!] : [firstTwo, `${literals[0]}/${literals[1]}`];
      if (bucket === null) generic.push(route);
      else bucket.set(key, [...(bucket.get(key) ?? []), route]);
    }
    // Each bucket holds, in order, every route a path landing in it can match.
    byFirst = new Map([...first].map(([key, list]) => [key, merged(generic, list)]));
    byFirstTwo = new Map([...firstTwo].map(([key, list]) => [key, merged(generic, first.get(key.slice(0, key.indexOf('/'))) ?? [], list)]));
    // A first segment only two-literal routes have: those of the first segment are none, the generic still apply.
    for (const key of firstTwo.keys()) {
      const head = key.slice(0, key.indexOf('/'));
      if (!byFirst.has(head)) byFirst.set(head, generic);
    }
    anywhere = generic;
    indexed = routes.length;
  }

  function candidates(path: string): TrouterRoute[] {
    if (indexed !== routes.length) build();
    const [first, second] = leadingSegments(path);
    return byFirstTwo.get(`${first}/${second}`) ?? byFirst.get(first) ?? anywhere;
  }

  // trouter's find (trouter 4.0.0), over the candidates instead of every route.
  (app as unknown as { find: (method: string, url: string) => { params: Record<string, string>; handlers: unknown[] } }).find = (method, url) => {
    const midx = METHOD_INDEX[method];
    const isHead = midx === 2;
    const params: Record<string, string> = {};
    let handlers: unknown[] = [];
    for (const route of candidates(url)) {
      if (route.midx !== midx && route.midx !== 0 && !(isHead && route.midx === 1)) continue;
      if (route.keys === false) {
        const matches = route.pattern.exec(url);
        if (matches === null) continue;
        if (matches.groups !== undefined) for (const k in matches.groups) params[k] = matches.groups[k]!;
      } else if (route.keys.length > 0) {
        const matches = route.pattern.exec(url);
        if (matches === null) continue;
        for (let j = 0; j < route.keys.length;) params[route.keys[j]!] = matches[++j]!;
      } else if (!route.pattern.test(url)) {
        continue;
      }
      if (route.handlers.length > 1) handlers = handlers.concat(route.handlers);
      else handlers.push(route.handlers[0]);
    }
    return { params, handlers };
  };
}
