// POST /api/v1/emails/confirmations: the app that signed a user up has the confirmation mail sent again,
// optionally to a new address (docs/web.md); GET /api/v1/emails/check_confirmation: whether the token's user has
// confirmed their address (Mastodon 4.4).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { resendConfirmationForApp } from "../../../domain/auth/confirmation.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { ErrorBody } from "../../schemas.ts";
import { Unprocessable } from "../../../lib/errors.ts";

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
    })
    .get("/api/v1/emails/check_confirmation", ({ viewer }) => {
      // Asked while still unconfirmed: the app's token of the user, not the confirmed-users-only `auth` rule.
      if (!viewer.user) throw new Unprocessable("This method requires an authenticated user");
      return viewer.user.confirmedAt !== null;
    }, {
      appAuth: ["read:accounts"],
      response: { 200: t.Boolean({ description: "true once the address is confirmed" }), 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      detail: { summary: "Whether your e-mail address is confirmed", tags: ["accounts"] },
    });
