// The instance's web pages and artwork (outside /api): /about, /privacy-policy, /instance/*.png.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { instanceAssetRoutes } from "./assets.ts";
import { instancePageRoutes } from "./pages.ts";

export const instanceWebRoutes = (deps: Deps) =>
  new Elysia({ name: "instance-web-routes" }).use(instancePageRoutes(deps)).use(instanceAssetRoutes());
