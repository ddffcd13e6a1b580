// One load-generator thread: `connections` keep-alive HTTP/1.1 connections, each sending its next request as
// soon as the previous response has been read, for `durationMs`. Latency is send → last response byte.
import type { LoadJob, LoadResult } from "./load.ts";
import { Connection, encodeRequest } from "./http1.ts";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<LoadJob>) => {
  const job = event.data;
  const url = new URL(job.url);
  const varies = job.url.includes("{{n}}") || job.body?.includes("{{n}}") || job.headerVariants.length > 0;
  const fixed = varies ? null : encodeRequest(url, job.method, job.headers, job.body);
  let n = 0;
  const request = () => {
    if (fixed) return fixed;
    const counter = n++;
    // In a URL, an 8-digit number unique per request (threads < 100): it can stand for the end of an id.
    const inUrl = String(counter * 100 + job.thread).padStart(8, "0").slice(-8);
    const target = new URL(job.url.replaceAll("{{n}}", inUrl));
    const variant = job.headerVariants.length ? job.headerVariants[(counter * 7 + job.thread) % job.headerVariants.length] : undefined;
    const headers = variant ? { ...job.headers, ...variant } : job.headers;
    return encodeRequest(target, job.method, headers, job.body?.replaceAll("{{n}}", `${job.thread}-${counter}`));
  };

  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const end = started + job.durationMs;

  async function loop() {
    const connection = new Connection(url.hostname, Number(url.port));
    while (performance.now() < end) {
      try {
        if (!connection.isOpen) await connection.open();
        const sentAt = performance.now();
        const status = await new Promise<number>((resolve, reject) => connection.send(request(), { onResponse: resolve, onError: reject }));
        latencies.push(performance.now() - sentAt);
        if (status !== job.expectStatus) unexpected[status] = (unexpected[status] ?? 0) + 1;
      } catch {
        errors++;
        connection.close();
        await Bun.sleep(10);
      }
    }
    connection.close();
  }

  await Promise.all(Array.from({ length: job.connections }, loop));
  const result: LoadResult = { latencies: Float64Array.from(latencies), seconds: (performance.now() - started) / 1000, errors, unexpected };
  postMessage(result);
};
