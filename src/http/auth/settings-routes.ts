// The /settings/* pages besides the profile (docs/web.md), mounted together.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { settingsAliasesRoutes } from "./settings-aliases.ts";
import { settingsApplicationsRoutes } from "./settings-applications.ts";
import { settingsMigrationRoutes } from "./settings-migration.ts";
import { settingsDeleteRoutes } from "./settings-delete.ts";
import { settingsEmailRoutes } from "./settings-email.ts";
import { settingsExportRoutes } from "./settings-export.ts";
import { settingsImportRoutes } from "./settings-import.ts";
import { settingsPasswordRoutes } from "./settings-password.ts";
import { settingsPreferencesRoutes } from "./settings-preferences.ts";
import { settingsSessionsRoutes } from "./settings-sessions.ts";

export const settingsAccountRoutes = (deps: Deps) =>
  new Elysia({ name: "auth-settings-account-routes" })
    .use(settingsPreferencesRoutes(deps))
    .use(settingsEmailRoutes(deps))
    .use(settingsPasswordRoutes(deps))
    .use(settingsApplicationsRoutes(deps))
    .use(settingsSessionsRoutes(deps))
    .use(settingsExportRoutes(deps))
    .use(settingsImportRoutes(deps))
    .use(settingsAliasesRoutes(deps))
    .use(settingsMigrationRoutes(deps))
    .use(settingsDeleteRoutes(deps));
