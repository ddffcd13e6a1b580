// POST /oauth/token and POST /oauth/revoke (API.md §2.5, §2.6). Form or JSON bodies; the client
// authenticates with client_id/client_secret in the body or with HTTP Basic. Errors are RFC 6749's.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { exchangeToken } from "../../domain/oauth/grants.ts";
import { revokeClientToken } from "../../domain/oauth/revoke.ts";
import { presentToken, TokenSchema } from "../../entities/token.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { EmptyObject, ErrorBody } from "../schemas.ts";
import { clientCredentials, onlyStrings } from "./request.ts";
import { requestAddress } from "../client-address.ts";

const Param = (description: string) => t.Optional(t.String({ description }));

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

const clientFields = {
  client_id: Param("Client id (or use HTTP Basic)"),
  client_secret: Param("Client secret (or use HTTP Basic)"),
};

export const tokenRoutes = (deps: Deps) =>
  new Elysia({ name: "oauth-token-routes" })
    .use(cachePlugin)
    .post(
      "/oauth/token",
      async ({ body, request, server }) =>
        presentToken(await exchangeToken(deps, clientCredentials(request, body), body, requestAddress(deps.config, request, server))),
      {
        body: t.Object({
          grant_type: Param("authorization_code, client_credentials or (when enabled) password"),
          ...clientFields,
          code: Param("authorization_code: the code from the redirect"),
          redirect_uri: Param("authorization_code: the redirect URI of the authorization request"),
          code_verifier: Param("authorization_code: PKCE verifier, required when a challenge was sent"),
          scope: Param("client_credentials and password: space separated, within the app's scopes; default read"),
          username: Param("password: e-mail address or username"),
          password: Param("password: the account's password"),
        }),
        transform: (ctx) => {
          ctx.body = onlyStrings(ctx.body);
          // RFC 6749 §5.1: token answers, and their errors, are never cached.
          Object.assign(ctx.set.headers, NO_STORE);
        },
        response: { 200: TokenSchema, 400: ErrorBody, 401: ErrorBody },
        detail: { summary: "Obtain an access token", tags: ["oauth"] },
      },
    )
    .post(
      "/oauth/revoke",
      async ({ body, request }) => {
        await revokeClientToken(deps, clientCredentials(request, body), body.token);
        return {};
      },
      {
        body: t.Object({ ...clientFields, token: Param("The access token to revoke") }),
        transform: (ctx) => void (ctx.body = onlyStrings(ctx.body)),
        response: { 200: EmptyObject, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
        detail: { summary: "Revoke an access token of this client", tags: ["oauth"] },
      },
    );
