// /api/v1/instance and /api/v1/instance/rules
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";

export const instanceV1Routes = (_deps: Deps) => new Elysia({ name: "instance-v1-routes" });
