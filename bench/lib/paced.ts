// A background writer for mixed-load scenarios: runs `step` about `perSecond` times a second until stopped.

/** Starts the loop; the returned function stops it and waits for the step in progress. */
export function pacedLoop(perSecond: number, step: (n: number) => Promise<void>): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    for (let n = 0; !stopped; n++) {
      const started = performance.now();
      await step(n);
      await Bun.sleep(Math.max(0, 1000 / perSecond - (performance.now() - started)));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}
