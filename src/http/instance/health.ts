// GET /health (Mastodon's, for load balancers and clients' server checks): "OK" while the store answers
// reads, 503 otherwise (a closed or broken database), so a balancer stops sending traffic to this process.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { storeAnswers } from "../../domain/instance/health.ts";

export const healthRoutes = (deps: Deps) =>
  new Elysia({ name: "health-routes", seed: deps.store.dir }).get(
    "/health",
    ({ set }) => {
      set.headers["content-type"] = "text/plain; charset=utf-8";
      set.headers["cache-control"] = "no-store";
      if (storeAnswers(deps)) return "OK";
      set.status = 503;
      return "Service Unavailable";
    },
    {
      response: { 200: t.String(), 503: t.String() },
      detail: { summary: "Is this server up? Answers OK (503 when its database does not answer)", tags: ["instance"] },
    },
  );
