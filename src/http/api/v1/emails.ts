// POST /api/v1/emails/confirmations: the app that signed a user up has the confirmation mail sent again,
// optionally to a new address (docs/web.md).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { resendConfirmationForApp } from "../../../domain/auth/confirmation.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { ErrorBody } from "../../schemas.ts";

export const emailRoutes = (deps: Deps) =>
  new Elysia({ name: "emails-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post("/api/v1/emails/confirmations", async ({ viewer, body }) => {
      await resendConfirmationForApp(deps, viewer, body.email);
      return {};
    }, {
      appAuth: ["write:accounts"],
      body: t.Object({ email: t.Optional(t.String({ description: "A new address to confirm instead (replaces the unconfirmed one)" })) }),
      response: { 200: t.Object({}, { description: "Empty object: the mail is on its way" }), 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      detail: {
        summary: "Resend the confirmation mail of an unconfirmed user (user token of the app that signed the user up)",
        tags: ["accounts"],
      },
    });
