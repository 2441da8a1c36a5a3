/**
 * A retry queue: jobs run in order; a job that throws is retried up to its
 * attempt limit, after a back-off that doubles with every attempt.
 */

/** Options of a queue. */
export interface QueueOptions {
  maxAttempts: number;
  baseDelayMs: number;
}

/** A job waiting in the queue and what happened to it so far. */
export interface Job {
  id: string;
  run: () => unknown;
  attempts: number;
  lastError?: unknown;
}

/** What a drain did with each job: done, or dead after its last attempt. */
export interface DrainResult {
  done: string[];
  dead: string[];
  delays: number[];
}

/** A FIFO of jobs with bounded, exponentially backed-off retries. */
export class RetryQueue {
  private jobs = new Map<string, Job>();
  private order: string[] = [];
  private opts: QueueOptions;

  constructor(opts: Partial<QueueOptions>) {
    this.opts = { maxAttempts: opts.maxAttempts || 3, baseDelayMs: opts.baseDelayMs || 100 };
  }

  /** Adds a job; an id already queued is replaced. */
  add(id: string, run: () => unknown): void {
    if (!this.jobs.has(id)) {
      this.order.push(id);
    }
    this.jobs.set(id, { id, run, attempts: 0 });
  }

  /** Returns the job of id, or undefined. */
  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Delay before the next attempt of a job that failed attempts times. */
  delayFor(attempts: number): number {
    if (attempts === 0) {
      return 0;
    }
    return this.opts.baseDelayMs * 2 ** (attempts - 1);
  }

  /** Runs every job until it succeeds or runs out of attempts. */
  drain(): DrainResult {
    const result: DrainResult = { done: [], dead: [], delays: [] };
    for (let id = this.order.shift(); id !== undefined; id = this.order.shift()) {
      const job = this.jobs.get(id);
      if (job === undefined) {
        continue;
      }
      result.delays.push(this.delayFor(job.attempts));
      job.attempts += 1;
      try {
        job.run();
        result.done.push(id);
        this.jobs.delete(id);
      } catch (err: unknown) {
        job.lastError = err;
        if (job.attempts >= this.opts.maxAttempts) {
          result.dead.push(id);
          this.jobs.delete(id);
        } else {
          this.order.push(id);
        }
      }
    }
    return result;
  }

  /** The last error of a job, as text ("" for a job not queued). */
  lastError(id: string): string {
    const job = this.jobs.get(id);
    return job === undefined ? '' : String(job.lastError);
  }
}
