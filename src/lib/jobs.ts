// Background jobs register here so shutdown can stop them before the database closes.

export type StopJob = () => void | Promise<void>;

/** The registry on ctx.jobs. A job starts itself and registers how to stop it. */
export class BackgroundJobs {
  private readonly jobs = new Map<string, StopJob>();

  /** Registers `stop` under `name`; throws if the name is taken, so two jobs cannot shadow each other. */
  add(name: string, stop: StopJob): void {
    if (this.jobs.has(name)) throw new Error(`background job "${name}" is already registered`);
    this.jobs.set(name, stop);
  }

  names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Stops every job, newest first, each awaited; a job that throws does not keep the others running. */
  async stopAll(): Promise<Error[]> {
    const failures: Error[] = [];
    for (const [name, stop] of [...this.jobs].reverse()) {
      try {
        await stop();
      } catch (err) {
        failures.push(new Error(`stopping ${name}: ${err instanceof Error ? err.message : String(err)}`));
      }
      this.jobs.delete(name);
    }
    return failures;
  }
}
