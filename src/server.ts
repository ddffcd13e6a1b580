// Starts the HTTP server and the job runner on one data directory; stops both gracefully.
import type { Config } from "./config.ts";
import { FFMPEG_MISSING, findFfmpeg } from "./media/ffmpeg.ts";
import { buildApp, createDeps } from "./app.ts";
import { log } from "./lib/log.ts";
import { removeUploadLeftovers } from "./lib/uploaded-file.ts";
import { startTrendsRefresh } from "./domain/trends/refresh.ts";
import { startRemoteCacheExpiry } from "./domain/media/remote-cache-expiry.ts";
import { missingOwnerHint } from "./cli/owner-hint.ts";
import { removeServerPid, writeServerPid } from "./lib/server-pid.ts";

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const deps = createDeps(config);
  writeServerPid(config.dataDir);
  await removeUploadLeftovers(config.dataDir);
  const app = buildApp(deps);
  await app.modules;
  // Bun's own body cap (128 MiB, answered with a bare 413) stays: every route refuses bodies over its own,
  // smaller limit with a JSON 413 as they stream in (http/plugins/body-limits.ts).
  app.listen({ port: config.port, hostname: process.env.WARREN_HOST || "0.0.0.0" });
  const port = app.server!.port!;
  await deps.jobs.start();
  await startTrendsRefresh(deps);
  await startRemoteCacheExpiry(deps);
  const ownerHint = missingOwnerHint(deps);
  if (ownerHint) process.stderr.write(ownerHint);
  log.info("warren listening", { port, url: config.url, data: config.dataDir });
  if (!findFfmpeg()) log.warn("video and audio uploads are off", { reason: FFMPEG_MISSING });
  let stopping: Promise<void> | null = null;
  return {
    url: `http://localhost:${port}`,
    port,
    stop() {
      stopping ??= (async () => {
        await app.stop();
        await deps.jobs.stop();
        await deps.store.flushed();
        await deps.store.close();
        removeServerPid(config.dataDir);
      })();
      return stopping;
    },
  };
}
