// GET /metrics: Prometheus's text format (docs/metrics.md). Answered to clients on loopback (the address as
// the rate limits see it, so a request a reverse proxy relays for someone outside is not on loopback) and to
// `Authorization: Bearer $WARREN_METRICS_TOKEN`; everyone else gets the same 404 as a path that does not
// exist, so the endpoint's presence is not given away. A request that sends an Authorization header is
// judged by its token alone, wherever it comes from.
import { Elysia, t } from "elysia";
import type { Server } from "elysia/universal";
import ipaddr from "ipaddr.js";
import type { AppDeps as Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import "../../lib/metrics/counters.ts";
import { counterMetrics, exposition, EXPOSITION_CONTENT_TYPE } from "../../lib/metrics/exposition.ts";
import { mergeProcesses } from "../../lib/metrics/processes.ts";
import { clusterLink } from "../../cluster/link.ts";
import { sameSecret, sha256 } from "../../lib/secrets.ts";
import { requestAddress } from "../client-address.ts";
import { bearerToken } from "../plugins/auth.ts";
import { ErrorBody } from "../schemas.ts";
import { collect } from "./collect.ts";

function onLoopback(address: string | null): boolean {
  if (address === null || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

function mayScrape(deps: Deps, request: Request, server: Server | null): boolean {
  if (request.headers.has("authorization")) {
    const token = deps.config.metricsToken;
    const sent = bearerToken(request);
    // Compared as digests: equal lengths, so the comparison takes the same time whatever was sent.
    return token !== null && sent !== null && sameSecret(sha256(sent), sha256(token));
  }
  return onLoopback(requestAddress(deps.config, request, server));
}

export function metricsRoutes(deps: Deps) {
  // What this process answers when a scrape that reached another process gathers every one's.
  clusterLink()?.collectWith(() => [...collect(deps), ...counterMetrics()]);
  return new Elysia({ name: "metrics-routes", seed: deps.store.dir }).get(
    "/metrics",
    async ({ request, server, set }) => {
      if (!mayScrape(deps, request, server)) throw new NotFound();
      set.headers["content-type"] = EXPOSITION_CONTENT_TYPE;
      set.headers["cache-control"] = "no-store";
      const link = clusterLink();
      if (!link) return exposition(collect(deps));
      // Several server processes: every one's metrics, labelled by process (lib/metrics/processes.ts).
      return exposition(mergeProcesses(await link.gather()), false);
    },
    {
      response: {
        200: t.String({ description: "Prometheus text exposition format, version 0.0.4 (docs/metrics.md)" }),
        404: ErrorBody,
      },
      detail: {
        summary: "Prometheus metrics, for clients on loopback or with the bearer token WARREN_METRICS_TOKEN (404 for others)",
        tags: ["instance"],
      },
    },
  );
}
