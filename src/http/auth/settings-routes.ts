// The /settings/* pages besides the profile (docs/web.md), mounted together.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { settingsApplicationsRoutes } from "./settings-applications.ts";
import { settingsEmailRoutes } from "./settings-email.ts";
import { settingsPasswordRoutes } from "./settings-password.ts";
import { settingsPreferencesRoutes } from "./settings-preferences.ts";

export const settingsAccountRoutes = (deps: Deps) =>
  new Elysia({ name: "auth-settings-account-routes" })
    .use(settingsPreferencesRoutes(deps))
    .use(settingsEmailRoutes(deps))
    .use(settingsPasswordRoutes(deps))
    .use(settingsApplicationsRoutes(deps));
