// GET /.well-known/oauth-authorization-server (RFC 8414) and GET|POST /oauth/userinfo (API.md §2.7).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { grantTypes } from "../../domain/oauth/grants.ts";
import { ALL_SCOPES } from "../../domain/scopes.ts";
import { presentUserinfo, UserinfoSchema } from "../../entities/userinfo.ts";
import { authPlugin } from "../plugins/auth.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { authErrors } from "../schemas.ts";

const Strings = t.Array(t.String());

const MetadataSchema = t.Object(
  {
    issuer: t.String(),
    service_documentation: t.String(),
    authorization_endpoint: t.String(),
    token_endpoint: t.String(),
    app_registration_endpoint: t.String({ description: "Non-standard: POST here to register a client" }),
    revocation_endpoint: t.String(),
    userinfo_endpoint: t.String(),
    scopes_supported: Strings,
    response_types_supported: Strings,
    response_modes_supported: Strings,
    grant_types_supported: Strings,
    token_endpoint_auth_methods_supported: Strings,
    code_challenge_methods_supported: Strings,
  },
  { description: "OAuth 2.0 authorization server metadata" },
);

const USERINFO_SCOPES = ["profile", "read:accounts"];

export const discoveryRoutes = (deps: Deps) => {
  const base = deps.config.url;
  const metadata = {
    issuer: `${base}/`,
    service_documentation: `${base}/openapi`,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    app_registration_endpoint: `${base}/api/v1/apps`,
    revocation_endpoint: `${base}/oauth/revoke`,
    userinfo_endpoint: `${base}/oauth/userinfo`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: grantTypes(deps),
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    code_challenge_methods_supported: ["S256"],
  };
  const userinfo = {
    auth: USERINFO_SCOPES,
    response: { 200: UserinfoSchema, ...authErrors },
  };
  return new Elysia({ name: "oauth-discovery-routes" })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/.well-known/oauth-authorization-server", () => metadata, {
      // The same document for everyone: cacheable whether or not a token is sent.
      publicCache: { seconds: 300, always: true },
      response: { 200: MetadataSchema },
      detail: { summary: "OAuth authorization server metadata", tags: ["oauth"] },
    })
    .get("/oauth/userinfo", ({ viewer }) => presentUserinfo(deps.config, viewer.account), {
      ...userinfo,
      detail: { summary: "Profile of the token's user (scope profile or read:accounts)", tags: ["oauth"] },
    })
    .post("/oauth/userinfo", ({ viewer }) => presentUserinfo(deps.config, viewer.account), {
      ...userinfo,
      detail: { summary: "Profile of the token's user (POST form)", tags: ["oauth"] },
    });
};
