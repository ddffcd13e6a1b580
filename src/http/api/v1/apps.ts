// POST /api/v1/apps (register a client, no auth), GET /api/v1/apps/verify_credentials (any valid token).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { appVapidKey, registerApp } from "../../../domain/oauth/apps.ts";
import { ALL_SCOPES } from "../../../domain/scopes.ts";
import { APP_LIMITS } from "../../../domain/limits.ts";
import { ApplicationSchema, CredentialApplicationSchema, presentApplication, presentCredentialApplication } from "../../../entities/application.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { ErrorBody } from "../../schemas.ts";

const StringOrList = (description: string) => t.Union([t.String(), t.Array(t.String())], { description });

export const appsRoutes = (deps: Deps) =>
  new Elysia({ name: "apps-routes" })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/apps",
      async ({ body }) => {
        const { app, clientSecret } = await registerApp(deps, body);
        return presentCredentialApplication(app, clientSecret, appVapidKey(deps.store));
      },
      {
        body: t.Object({
          client_name: t.Optional(t.String({ description: `Required; at most ${APP_LIMITS.maxNameLength} characters` })),
          redirect_uris: t.Optional(
            StringOrList(`Required; absolute URIs without fragment or urn:ietf:wg:oauth:2.0:oob, newline/space separated or an array; at most ${APP_LIMITS.maxRedirectUrisLength} characters in all`),
          ),
          scopes: t.Optional(StringOrList("Space-separated scopes; default read")),
          website: t.Optional(t.String({ description: `http(s) URL, at most ${APP_LIMITS.maxWebsiteLength} characters` })),
        }),
        response: { 200: CredentialApplicationSchema, 400: ErrorBody, 422: ErrorBody },
        detail: { summary: "Register an OAuth client application", tags: ["apps"] },
      },
    )
    .get("/api/v1/apps/verify_credentials", ({ viewer }) => presentApplication(viewer.app, appVapidKey(deps.store)), {
      appAuth: ALL_SCOPES,
      response: { 200: ApplicationSchema, 401: ErrorBody, 403: ErrorBody },
      detail: { summary: "The application of the access token (any valid token, any scope)", tags: ["apps"] },
    });
