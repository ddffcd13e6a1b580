// Starts the HTTP server and the job runner on one data directory; stops both gracefully.
import type { Config } from "./config.ts";
import { FFMPEG_MISSING, findFfmpeg } from "./media/ffmpeg.ts";
import { buildApp, createDeps } from "./app.ts";
import { log } from "./lib/log.ts";
import { removeUploadLeftovers } from "./lib/uploaded-file.ts";
import { startTrendsRefresh } from "./domain/trends/refresh.ts";
import { startRemoteCacheExpiry } from "./domain/media/remote-cache-expiry.ts";
import { missingOwnerHint } from "./cli/owner-hint.ts";
import { claimServerPid, removeServerPid } from "./lib/server-pid.ts";
import { clusterLink } from "./cluster/link.ts";
import { isStreamSignal } from "./domain/streaming/signals.ts";
import { closeStreams } from "./http/streaming/hub.ts";

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  // Under a supervisor every process listens on the same port (src/cluster/supervisor.ts), and the pid file
  // (lib/server-pid.ts) names the supervisor, which serves the directory; a lone server names itself, or is
  // refused if another serves it.
  const link = clusterLink();
  if (!link) claimServerPid(config.dataDir);
  const deps = createDeps(config);
  await removeUploadLeftovers(config.dataDir);
  const app = buildApp(deps);
  await app.modules;
  // Bun's own body cap (128 MiB, answered with a bare 413) stays: every route refuses bodies over its own,
  // smaller limit with a JSON 413 as they stream in (http/plugins/body-limits.ts).
  app.listen({ port: config.port, hostname: process.env.WARREN_HOST || "0.0.0.0", reusePort: link !== null });
  // This process's stream signals reach the streams of the others (each hears the rest in http/streaming/hub.ts).
  if (link) deps.jobs.onEvent((event) => isStreamSignal(event) && link.publish(event));
  const port = app.server!.port!;
  await deps.jobs.start();
  await startTrendsRefresh(deps);
  await startRemoteCacheExpiry(deps);
  const ownerHint = missingOwnerHint(deps);
  // Once per instance: under a supervisor, the first slot's process says it.
  if (ownerHint && (link?.index ?? 0) === 0) process.stderr.write(ownerHint);
  log.info("warren listening", { port, url: config.url, data: config.dataDir });
  if (!findFfmpeg()) log.warn("video and audio uploads are off", { reason: FFMPEG_MISSING });
  let stopping: Promise<void> | null = null;
  return {
    url: `http://localhost:${port}`,
    port,
    stop() {
      stopping ??= (async () => {
        // Open streams are requests that never end: the drain would wait for them until killed.
        const stopped = app.stop();
        closeStreams(deps);
        await stopped;
        await deps.jobs.stop();
        await deps.store.flushed();
        await deps.store.close();
        removeServerPid(config.dataDir);
      })();
      return stopping;
    },
  };
}
