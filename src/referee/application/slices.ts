interface Job {
  slices: Generator<void, unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs long folds (loading, verifying or replaying a long game) a slice at a time: one slice per
 * turn of the event loop, taken in turn from every job waiting, so requests and I/O go on between
 * slices and one expensive request cannot stall the others.
 */
export class Slicer {
  private readonly jobs: Job[] = [];
  private scheduled = false;

  /** The computation's result; its first slice runs at once (most streams are one slice long). */
  run<T>(slices: Generator<void, T>): Promise<T> {
    try {
      const first = slices.next();
      if (first.done) return Promise.resolve(first.value);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ slices, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.jobs.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.tick());
  }

  private tick(): void {
    this.scheduled = false;
    const job = this.jobs.shift()!;
    try {
      const step = job.slices.next();
      if (step.done) job.resolve(step.value);
      else this.jobs.push(job);
    } catch (err) {
      job.reject(err);
    }
    this.schedule();
  }
}
