// /.well-known/nodeinfo and /nodeinfo/2.0
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";

export const wellKnownRoutes = (_deps: Deps) => new Elysia({ name: "wellknown-routes" });
