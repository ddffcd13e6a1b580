// The social graph's routes (docs/relationships.md): follows and the follower lists, follow requests,
// blocks, mutes, notes and GET /api/v1/accounts/relationships. Static paths such as
// /api/v1/accounts/relationships win over /api/v1/accounts/:id in Elysia's router.
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { followRoutes } from "./relationships/follows.ts";
import { followRequestRoutes } from "./relationships/follow-requests.ts";
import { blockRoutes } from "./relationships/blocks.ts";
import { muteRoutes } from "./relationships/mutes.ts";
import { accountRelationshipRoutes } from "./relationships/account-relationships.ts";

export const relationshipRoutes = (deps: Deps) =>
  new Elysia({ name: "relationship-routes", seed: deps.store.dir })
    .use(accountRelationshipRoutes(deps))
    .use(followRoutes(deps))
    .use(followRequestRoutes(deps))
    .use(blockRoutes(deps))
    .use(muteRoutes(deps));
