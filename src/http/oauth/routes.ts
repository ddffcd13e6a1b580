// OAuth: /oauth/authorize, /oauth/token, /oauth/revoke, /oauth/userinfo, /.well-known/oauth-authorization-server
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";

export const oauthRoutes = (_deps: Deps) => new Elysia({ name: "oauth-routes" });
