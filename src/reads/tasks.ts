// The reads that may run on a read worker, by name: each a function of (context, plain arguments,
// now, budget) returning plain data, so it runs the same on a worker or on the main thread.
import type { AppContext } from '../context.ts';
import type { Caller } from '../http/types.ts';
import { runNodeQuery } from '../modules/queries/service.ts';
import type { RunQueryInput } from '../modules/queries/schemas.ts';
import { listResources, type ListResourcesInput } from '../modules/resources/list.ts';
import { listRequests } from '../modules/requests/list.ts';
import type { ListRequestsInput } from '../modules/requests/schemas.ts';
import { readSnapshot } from '../modules/access-reviews/service.ts';
import type { UarScopeInput } from '../modules/access-reviews/schemas.ts';
import type { Viewer } from '../modules/visibility/store.ts';
import { WorkBudget, type BudgetLimits } from './budget.ts';

const TASKS = {
  'queries.run': (ctx: AppContext, args: { input: RunQueryInput; viewer: Viewer | null }, now: Date, budget: WorkBudget) =>
    runNodeQuery(ctx, args.input, now, args.viewer, budget),
  'resources.list': (ctx: AppContext, args: { query: ListResourcesInput; viewer: Viewer | null }) => listResources(ctx, args.query, args.viewer),
  'requests.list': (ctx: AppContext, args: { query: ListRequestsInput; caller: Pick<Caller, 'userId' | 'role'> }, now: Date) =>
    listRequests(ctx, args.query, args.caller, now),
  'uar.snapshot': (ctx: AppContext, args: { scope: UarScopeInput | undefined }, now: Date, budget: WorkBudget) => readSnapshot(ctx, args.scope, now, budget),
};

export type TaskName = keyof typeof TASKS;
export type TaskArgs<K extends TaskName> = Parameters<(typeof TASKS)[K]>[1];
export type TaskResult<K extends TaskName> = ReturnType<(typeof TASKS)[K]>;

/** Runs task `name`; throws what it throws (AppError for the caller, validation_failed when the budget runs out). */
export function runTask<K extends TaskName>(ctx: AppContext, name: K, args: TaskArgs<K>, now: Date, limits: BudgetLimits): TaskResult<K> {
  const task = TASKS[name] as (ctx: AppContext, args: TaskArgs<K>, now: Date, budget: WorkBudget) => TaskResult<K>;
  return task(ctx, args, now, new WorkBudget(limits));
}
