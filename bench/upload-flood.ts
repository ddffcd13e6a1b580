// The upload attack from hardening issue 23, replayed against a real server process: parallel 100 MiB
// multipart uploads to POST /api/v2/media, anonymous (401 before the body is read) and with a valid token
// (streamed to a temporary file, then refused by the 99 MB video limit), by Content-Length and chunked,
// while an unrelated GET /api/v1/instance is timed. Prints statuses, time, the server's RSS before, at its
// peak and after, and the slowest unrelated answer. Run: bun bench/upload-flood.ts [--parallel=6]
import { BenchClient } from "./lib/client.ts";
import { startWarren } from "./lib/servers.ts";
import { MiB, uploadFlood } from "./lib/upload-flood.ts";

const parallel = Number(process.argv.find((a) => a.startsWith("--parallel="))?.split("=")[1] ?? 6);
const warren = await startWarren();
const port = Number(new URL(warren.url).port);
try {
  const { token } = await new BenchClient(warren).user("uploader");
  for (const [label, auth] of [["anonymous", undefined], ["with a token", token]] as const) {
    for (const chunked of [false, true]) {
      const r = await uploadFlood(warren.pid, warren.url, parallel, { port, token: auth, fileBytes: 100 * MiB, chunked });
      const counts = Object.entries(r.statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {}));
      console.log(
        `${label}, ${chunked ? "chunked" : "Content-Length"}: ${parallel} × 100 MiB → ${counts.map(([s, n]) => `${n}× ${s}`).join(", ")} in ${Math.round(r.ms)} ms; ` +
          `RSS ${Math.round(r.rssBeforeMb)} → peak ${Math.round(r.rssPeakMb)} → ${Math.round(r.rssAfterMb)} MB; slowest GET /api/v1/instance ${r.slowestUnrelatedMs.toFixed(1)} ms`,
      );
    }
  }
} finally {
  await warren.stop();
}
