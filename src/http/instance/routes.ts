// The instance's web pages and artwork (outside /api): /about, /privacy-policy, /instance/*.png; /health.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { instanceAssetRoutes } from "./assets.ts";
import { instancePageRoutes } from "./pages.ts";
import { healthRoutes } from "./health.ts";

export const instanceWebRoutes = (deps: Deps) =>
  new Elysia({ name: "instance-web-routes" }).use(instancePageRoutes(deps)).use(instanceAssetRoutes()).use(healthRoutes(deps));
