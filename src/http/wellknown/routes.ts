// The well-known discovery documents: NodeInfo, WebFinger and host-meta.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { nodeInfoRoutes } from "./nodeinfo.ts";
import { webfingerRoutes } from "./webfinger.ts";

export const wellKnownRoutes = (deps: Deps) =>
  new Elysia({ name: "wellknown-routes" }).use(nodeInfoRoutes(deps)).use(webfingerRoutes(deps));
