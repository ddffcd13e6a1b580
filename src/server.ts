// Starts the HTTP server and the job runner on one data directory; stops both gracefully.
import type { Config } from "./config.ts";
import { buildApp, createDeps } from "./app.ts";
import { log } from "./lib/log.ts";
import { largestBodyLimit } from "./http/plugins/body-limits.ts";
import { routeBodySchemas } from "./http/plugins/params.ts";

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const deps = createDeps(config);
  const app = buildApp(deps);
  await app.modules;
  app.listen({
    port: config.port,
    hostname: process.env.WARREN_HOST || "0.0.0.0",
    // A backstop only: each route refuses bodies over its own, smaller limit with a JSON 413 (body-limits.ts).
    maxRequestBodySize: largestBodyLimit(routeBodySchemas(), config.maxBodyBytes) + 64 * 1024,
  });
  const port = app.server!.port!;
  await deps.jobs.start();
  log.info("warren listening", { port, url: config.url, data: config.dataDir });
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
      })();
      return stopping;
    },
  };
}
