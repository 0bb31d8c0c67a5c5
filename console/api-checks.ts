// Type-level checks of console/api.ts, run by the console's type check (`npm run typecheck`, `npm test`)
// and never bundled (nothing imports this file): each marked call must be refused, so a typed call can be
// trusted to refuse a path, a parameter, a query key, a body field or an answer field the API document lacks.
import { del, get, post } from './api.ts';

export async function refusedCalls(): Promise<void> {
  // @ts-expect-error a path the API does not have
  await get('/no-such-path');
  // @ts-expect-error a method the path does not have
  await del('/requests/{id}', { path: { id: 'x' } });
  // @ts-expect-error the path parameter is required
  await get('/requests/{id}');
  // @ts-expect-error a query key the operation does not take
  await get('/requests', { query: { no_such_key: 'x' } });
  // @ts-expect-error a body field of the wrong type
  await post('/requests/{id}/comments', { path: { id: 'x' }, body: { comment: 5 } });
  const request = await get('/requests/{id}', { path: { id: 'x' } });
  // @ts-expect-error a field the answer does not have
  void request.no_such_field;
  // What the document does say is accepted, and typed.
  const status: 'PENDING' | 'APPROVED' | 'DENIED' | 'CANCELED' = request.status;
  void status;
}
