// OAuth: /oauth/authorize, /oauth/token, /oauth/revoke, /oauth/userinfo, /.well-known/oauth-authorization-server
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authorizeRoutes } from "./authorize.ts";
import { discoveryRoutes } from "./discovery.ts";
import { tokenRoutes } from "./token.ts";

export const oauthRoutes = (deps: Deps) =>
  new Elysia({ name: "oauth-routes" }).use(authorizeRoutes(deps)).use(tokenRoutes(deps)).use(discoveryRoutes(deps));
