// Node queries over users, groups and resources: filters compiled to parameterised SQL, one kind at a time.
// Table and column names come from NODE_KINDS, never from input; every value is a bound parameter.
import type { Db } from '../../db/open.ts';
import { VIEWER_GROUPS_CTE, viewerParams, visibleToViewer, type Viewer } from '../visibility/sql.ts';
import type { EntityFilters, EntityType } from './schemas.ts';

/** Where each kind of node lives, in the order results are listed (users, then groups, then resources). */
const NODE_KINDS = {
  USER: { table: 'users', name: 'full_name', itemType: "'USER'", appId: null, tagTable: 'tag_users', tagColumn: 'user_id', visibility: null },
  GROUP: { table: 'groups', name: 'name', itemType: 'group_type', appId: 'app_id', tagTable: 'tag_groups', tagColumn: 'group_id', visibility: 'group' },
  RESOURCE: { table: 'resources', name: 'name', itemType: 'resource_type', appId: 'app_id', tagTable: 'tag_resources', tagColumn: 'resource_id', visibility: 'resource' },
} as const;
export const NODE_ORDER: readonly EntityType[] = ['USER', 'GROUP', 'RESOURCE'];

/** A piece of WHERE clause with its parameters in order; '1' and '0' are folded away where they meet AND, OR and NOT. */
interface Sql {
  text: string;
  params: unknown[];
}
const TRUE: Sql = { text: '1', params: [] };
const FALSE: Sql = { text: '0', params: [] };

function and(parts: Sql[]): Sql {
  if (parts.some((p) => p.text === '0')) return FALSE;
  const kept = parts.filter((p) => p.text !== '1');
  if (kept.length === 0) return TRUE;
  if (kept.length === 1) return kept[0]!;
  return { text: kept.map((p) => `(${p.text})`).join(' AND '), params: kept.flatMap((p) => p.params) };
}

function or(parts: Sql[]): Sql {
  if (parts.some((p) => p.text === '1')) return TRUE;
  const kept = parts.filter((p) => p.text !== '0');
  if (kept.length === 0) return FALSE;
  if (kept.length === 1) return kept[0]!;
  return { text: kept.map((p) => `(${p.text})`).join(' OR '), params: kept.flatMap((p) => p.params) };
}

function not(part: Sql): Sql {
  if (part.text === '1') return FALSE;
  if (part.text === '0') return TRUE;
  return { text: `NOT (${part.text})`, params: part.params };
}

const inList = (column: string, values: unknown[]): Sql =>
  values.length === 0 ? FALSE : { text: `${column} IN (${values.map(() => '?').join(', ')})`, params: values };

/** Name matching ignores case; instr and substr rather than LIKE, so % and _ in the input are plain characters. */
function nameMatch(column: string, filter: NonNullable<EntityFilters['entityName']>): Sql {
  const s = filter.string;
  // Every name contains, starts and ends with the empty string (substr cannot say so).
  if (s === '' && filter.stringMatchType !== 'EQUALS') return TRUE;
  switch (filter.stringMatchType) {
    case 'CONTAINS': return { text: `instr(lower(${column}), lower(?)) > 0`, params: [s] };
    case 'EQUALS': return { text: `lower(${column}) = lower(?)`, params: [s] };
    case 'STARTS_WITH': return { text: `substr(lower(${column}), 1, length(?)) = lower(?)`, params: [s, s] };
    case 'ENDS_WITH': return { text: `length(?) <= length(${column}) AND substr(lower(${column}), -length(?)) = lower(?)`, params: [s, s, s] };
  }
}

/** The filter as a condition on one kind's rows. Role filters and tag connections are refused before this (service). */
function compile(kind: EntityType, f: EntityFilters): Sql {
  const k = NODE_KINDS[kind];
  const parts: Sql[] = [];
  if (f.entityTypes) parts.push(f.entityTypes.includes(kind) ? TRUE : FALSE);
  if (f.entityItemTypes) {
    parts.push(kind === 'USER' ? (f.entityItemTypes.includes('USER') ? TRUE : FALSE) : inList(k.itemType, f.entityItemTypes));
  }
  if (f.entityName) parts.push(nameMatch(k.name, f.entityName));
  if (f.entityTag) {
    const valued = f.entityTag.value !== undefined;
    parts.push({
      text: `id IN (SELECT l.${k.tagColumn} FROM ${k.tagTable} l JOIN tags t ON t.id = l.tag_id WHERE t.key = ?${valued ? ' AND t.value = ?' : ''})`,
      params: valued ? [f.entityTag.key, f.entityTag.value] : [f.entityTag.key],
    });
  }
  if (f.entityIDs) parts.push(inList('id', f.entityIDs));
  if (f.importedFromApp) parts.push(k.appId === null ? FALSE : inList(k.appId, f.importedFromApp));
  if (f.allOf) parts.push(and(f.allOf.map((sub) => compile(kind, sub))));
  if (f.anyOf) parts.push(or(f.anyOf.map((sub) => compile(kind, sub))));
  if (f.not) parts.push(not(compile(kind, f.not)));
  return and(parts);
}

export interface NodeRow {
  seq: number;
  id: string;
  name: string;
  item_type: string;
}

/** How many compiled statements are kept; a query's shape decides its SQL, so a busy client reuses a few. */
const STATEMENT_CACHE_SIZE = 200;

export function createQueryStore(db: Db) {
  const statements = new Map<string, ReturnType<typeof db.prepare<unknown[], NodeRow>>>();

  /** A statement for this SQL text, prepared once and kept (least recently used dropped first). */
  function statement(text: string) {
    let prepared = statements.get(text);
    if (prepared) {
      statements.delete(text);
    } else {
      prepared = db.prepare<unknown[], NodeRow>(text);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    }
    statements.set(text, prepared);
    return prepared;
  }

  return {
    /**
     * Up to `limit` nodes of one kind matching `filter` (and among `only`, when given), after seq
     * `after`, in seq order; none (without touching the table) when the filter cannot match this kind.
     */
    nodes(kind: EntityType, filter: EntityFilters, after: number, limit: number, only?: ReadonlySet<string>, viewer: Viewer | null = null): NodeRow[] {
      const where = compile(kind, filter);
      if (where.text === '0' || only?.size === 0) return [];
      const k = NODE_KINDS[kind];
      // The ids access filters allow arrive as one JSON array: any number of them in one bound parameter.
      const allowed = only === undefined ? '' : ' AND id IN (SELECT value FROM json_each(?))';
      // A viewer who is not an admin sees only the groups and resources visibility lets them see.
      const hidden = viewer !== null && k.visibility !== null;
      const text = `${hidden ? `WITH RECURSIVE ${VIEWER_GROUPS_CTE}` : ''}
                    SELECT seq, id, ${k.name} AS name, ${k.itemType} AS item_type FROM ${k.table}
                    WHERE seq > ? AND (${where.text})${allowed}${hidden ? ` AND ${visibleToViewer(k.visibility)}` : ''} ORDER BY seq LIMIT ?`;
      const params = only === undefined ? where.params : [...where.params, JSON.stringify([...only])];
      const prepared = statement(text);
      return hidden ? prepared.all(after, ...params, limit, viewerParams(viewer)) : prepared.all(after, ...params, limit);
    },
  };
}

