// /api/v1/accounts: registration, credentials, profile reads
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";

export const accountsRoutes = (_deps: Deps) => new Elysia({ name: "accounts-routes" });
