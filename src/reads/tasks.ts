// The reads that may run on a read worker, by name: each a function of (context, plain arguments, now,
// budget) returning plain data, so it runs the same on a worker or on the main thread. Areas declare
// their own (Area.readTasks); the context gathers them, on the main thread and in each worker alike.
import type { AppContext } from '../context.ts';
import type { JsonText } from '../http/json-text.ts';
import { WorkBudget, type BudgetLimits } from './budget.ts';

/** A read task: plain arguments in, plain data out; throws AppError for the caller. */
export type ReadTask<A = never, R = unknown> = (ctx: AppContext, args: A, now: Date, budget: WorkBudget) => R;

/**
 * Every read task by name, with its function's type. Each area adds its own where it declares them (its
 * area.ts), as `declare module '../../reads/tasks.ts' { interface ReadTasks { 'queries.run': typeof … } }`.
 */
export interface ReadTasks {}

export type TaskName = keyof ReadTasks;
export type TaskArgs<K extends TaskName> = ReadTasks[K] extends ReadTask<infer A, unknown> ? A : never;
export type TaskResult<K extends TaskName> = ReadTasks[K] extends ReadTask<never, infer R> ? R : never;
/** What a task's answer holds: a task may answer its JSON text already made (JsonText: a page serialised as it was cut). */
export type TaskAnswer<K extends TaskName> = TaskResult<K> extends JsonText<infer T> ? T : TaskResult<K>;

/** Runs task `name`; throws what it throws (AppError for the caller, validation_failed when the budget runs out). */
export function runTask<K extends TaskName>(ctx: AppContext, name: K, args: TaskArgs<K>, now: Date, limits: BudgetLimits): TaskResult<K> {
  const task = ctx.registry.readTasks[name] as ReadTask<TaskArgs<K>, TaskResult<K>> | undefined;
  if (!task) throw new Error(`no area declares the read task ${String(name)}`);
  return task(ctx, args, now, new WorkBudget(limits));
}
