// POST /api/v1/apps, GET /api/v1/apps/verify_credentials
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";

export const appsRoutes = (_deps: Deps) => new Elysia({ name: "apps-routes" });
