// At most `limit` of some work at once; the rest wait their turn in order.

export interface Semaphore {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function semaphore(limit: number): Semaphore {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(work) {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        return await work();
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
  };
}
