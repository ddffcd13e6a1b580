// The people-facing pages under /auth (docs/web.md): sign-up, sign-in and sign-out, e-mail confirmation and
// password reset; the profile settings page.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { confirmationRoutes } from "./confirmation.ts";
import { passwordRoutes } from "./password.ts";
import { signInRoutes } from "./sign-in.ts";
import { signUpRoutes } from "./sign-up.ts";
import { settingsRoutes } from "./settings.ts";
import { settingsAccountRoutes } from "./settings-routes.ts";

export const authWebRoutes = (deps: Deps) =>
  new Elysia({ name: "auth-web-routes" }).use(signUpRoutes(deps)).use(signInRoutes(deps)).use(confirmationRoutes(deps)).use(passwordRoutes(deps))
    .use(settingsRoutes(deps)).use(settingsAccountRoutes(deps));
