// Comparing two values as JSON documents: the same when they serialise alike once object keys are
// put in order. JSON.stringify alone depends on the order keys were written in, so a stage stored
// as { operator, …, stage } would differ from the same stage sent as { stage, operator, … }.

/** The value with every object's keys sorted (and undefined members dropped, as JSON does). */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, member]) => [key, ordered(member)]),
  );
}

/** Whether `a` and `b` are the same JSON document, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(ordered(a)) === JSON.stringify(ordered(b));
}
