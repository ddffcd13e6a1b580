// Every status route group, composed once for src/app.ts.
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { accountStatusesRoutes } from "./account-statuses.ts";
import { bookmarksRoutes } from "./bookmarks.ts";
import { favouritesRoutes } from "./favourites.ts";
import { statusActionRoutes } from "./statuses/actions.ts";
import { statusCoreRoutes } from "./statuses/core.ts";
import { statusEditRoutes } from "./statuses/edit.ts";
import { statusPeopleRoutes } from "./statuses/people.ts";
import { statusQuoteRoutes } from "./statuses/quotes.ts";
import { statusThreadRoutes } from "./statuses/thread.ts";

export const statusesRoutes = (deps: Deps) =>
  new Elysia({ name: "statuses-routes", seed: deps.store.dir })
    .use(statusCoreRoutes(deps))
    .use(statusEditRoutes(deps))
    .use(statusThreadRoutes(deps))
    .use(statusActionRoutes(deps))
    .use(statusPeopleRoutes(deps))
    .use(statusQuoteRoutes(deps))
    .use(favouritesRoutes(deps))
    .use(bookmarksRoutes(deps))
    .use(accountStatusesRoutes(deps));
