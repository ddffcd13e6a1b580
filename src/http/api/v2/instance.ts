// /api/v2/instance
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";

export const instanceV2Routes = (_deps: Deps) => new Elysia({ name: "instance-v2-routes" });
