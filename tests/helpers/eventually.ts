// The one polling helper of the tests. Prefer `deps.jobs.drain()` for work the job runner does; poll only what
// happens outside it (another instance's inbox, a worker thread's event, a stream, a listening peer).

export interface EventuallyOptions {
  /** Give up (throw) after this long; 15 s unless told. */
  timeoutMs?: number;
  /** What is awaited, for the error message. */
  what?: string;
  /** Pause between two probes. */
  intervalMs?: number;
}

type Settled<T> = Exclude<T, undefined | null | false>;

/** Calls `probe` until it gives something other than undefined, null or false, and returns that. */
export async function eventually<T>(probe: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Settled<T>> {
  const { timeoutMs = 15_000, what = "a condition", intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as Settled<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}
