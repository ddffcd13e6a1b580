// GET /api/v2/instance: what clients read at start-up (limits, registrations, rules, contact, streaming URL).
// No authentication; answers are public and cacheable for 5 minutes even when a token is sent (API.md §1.6).
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { instanceFacts } from "../../../domain/instance/info.ts";
import { InstanceV2Schema, presentInstanceV2 } from "../../../entities/instance.ts";
import { cachePlugin } from "../../plugins/cache.ts";

export const INSTANCE_CACHE = { seconds: 300, always: true };

export const instanceV2Routes = (deps: Deps) =>
  new Elysia({ name: "instance-v2-routes" })
    .use(cachePlugin)
    .get("/api/v2/instance", () => presentInstanceV2(deps.config, instanceFacts(deps)), {
      publicCache: INSTANCE_CACHE,
      response: { 200: InstanceV2Schema },
      detail: { summary: "Instance information: configuration, limits, registrations, contact and rules", tags: ["instance"] },
    });
