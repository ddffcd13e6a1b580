// POST /api/v1/accounts: sign-up by an app (client_credentials token), answered with the new user's token.
import { requestAddress } from "../../../client-address.ts";
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { registerAccount, MAX_REASON_LENGTH } from "../../../../domain/accounts/register.ts";
import { ACCOUNT_LIMITS } from "../../../../domain/limits.ts";
import { presentToken, TokenSchema } from "../../../../entities/token.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { ErrorBody } from "../../../schemas.ts";

export const registrationRoutes = (deps: Deps) =>
  new Elysia({ name: "accounts-registration-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post("/api/v1/accounts", async ({ viewer, body, request, server }) => presentToken(await registerAccount(deps, viewer, body, requestAddress(deps.config, request, server))), {
      appAuth: ["write:accounts"],
      body: t.Object({
        username: t.Optional(t.String({ description: `Required; letters, digits and _; at most ${ACCOUNT_LIMITS.maxUsernameLength} characters` })),
        email: t.Optional(t.String({ description: "Required" })),
        password: t.Optional(t.String({ description: `Required; ${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters` })),
        agreement: t.Optional(t.Union([t.Boolean(), t.String()], { description: "Must be true: the user accepts the server's rules and terms" })),
        locale: t.Optional(t.String({ description: "Language code for e-mails, e.g. en or pt-BR; default en" })),
        reason: t.Optional(t.String({ description: `Why the user wants to join (kept for approval); at most ${MAX_REASON_LENGTH} characters` })),
      }),
      response: { 200: TokenSchema, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      detail: {
        summary: "Register an account (app token); returns the new user's token with the app's scopes",
        tags: ["accounts"],
      },
    });
