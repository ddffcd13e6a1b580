// The OpenAPI document at /openapi/json (UI at /openapi), generated from every route's schemas.
// WebSocket routes are the one thing the generator gets wrong: it lists them under a "ws" method, which
// OpenAPI does not have. They are documented as what they are on the wire: a GET answered 101 on upgrade.
// Errors the shared plugins give on any route (an unparseable body, a wrong-typed parameter) are added to
// each route's documented responses here, once, rather than repeated in every route file.
import { openapi } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import { Kind, type TSchema } from "@sinclair/typebox";
import type { Deps } from "../deps.ts";
import { ErrorBody } from "./schemas.ts";

type PluginDocumentation = NonNullable<NonNullable<Parameters<typeof openapi>[0]>["documentation"]>;
/** The plugin reads `paths` when the document is first requested, so it may be filled in after composing. */
type Documentation = Omit<PluginDocumentation, "paths"> & { paths?: Record<string, unknown> };

function oauthFlows(base: string) {
  return {
    authorizationCode: {
      authorizationUrl: `${base}/oauth/authorize`,
      tokenUrl: `${base}/oauth/token`,
      scopes: { read: "read", write: "write", follow: "follow", push: "push", profile: "profile" },
    },
  };
}

export function openapiDocumentation(deps: Deps): Documentation {
  return {
    info: {
      title: "Warren API",
      version: "0.1.0",
      description: "Mastodon-compatible REST API of a Warren server.",
    },
    components: {
      securitySchemes: { bearer: { type: "oauth2", flows: oauthFlows(deps.config.url) } },
    },
  };
}

export const openapiPlugin = (documentation: Documentation) =>
  openapi({
    path: "/openapi",
    specPath: "/openapi/json",
    // Paths with a dot (/.well-known/…) are real routes here, not static files.
    exclude: { staticFile: false },
    documentation: documentation as PluginDocumentation,
  });

interface RouteInfo {
  method: string;
  path: string;
  hooks?: { query?: TSchema; body?: TSchema; response?: Record<string, TSchema>; detail?: Record<string, unknown> };
}

const hasProperties = (schema: TSchema | undefined) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}).length > 0;

/** Routes the rate limits (plugins/rate-limits.ts) may answer 429 JSON: the API, and password sign-ins. */
const mayBeThrottled = (route: RouteInfo) =>
  route.path.startsWith("/api") || (route.method === "POST" && ["/oauth/token", "/oauth/authorize"].includes(route.path));

/**
 * Called once the app is composed. Every route may answer 400 (plugins/params.ts: a forbidden parameter name
 * such as `__proto__`, too many parameters, a body that cannot be parsed; plugins/errors.ts: a required
 * parameter is missing), 414 and 431 (plugins/body-limits.ts: request line or headers too large); every
 * route with a body may answer 408 and 413 (the body arrives too slowly or is too large); every route with
 * parameters may answer 422 (a parameter of the wrong type or shape); API routes and password sign-ins may
 * answer 429 (plugins/rate-limits.ts). Routes that document these themselves keep theirs.
 */
export function documentCommonErrors(app: AnyElysia): void {
  for (const route of app.routes as RouteInfo[]) {
    const response = route.hooks?.response;
    if (!route.hooks || !response || typeof response !== "object" || Kind in response || route.method === "WS") continue;
    const hasBody = !["GET", "HEAD", "OPTIONS"].includes(route.method);
    response[400] ??= ErrorBody;
    response[414] ??= ErrorBody;
    response[431] ??= ErrorBody;
    if (hasBody) {
      response[408] ??= ErrorBody;
      response[413] ??= ErrorBody;
    }
    if ((hasProperties(route.hooks.query) || hasProperties(route.hooks.body)) && !response[422]) response[422] = ErrorBody;
    if (mayBeThrottled(route)) response[429] ??= ErrorBody;
  }
}

const error = (description: string) => ({ description, content: { "application/json": { schema: ErrorBody } } });

/** Called once the app is composed: replaces each WebSocket route's "ws" entry by its upgrade GET. */
export function documentWebSockets(app: AnyElysia, documentation: Documentation): void {
  const paths: Record<string, unknown> = {};
  for (const route of app.routes as RouteInfo[]) {
    if (route.method !== "WS") continue;
    const query = route.hooks?.query as { properties?: Record<string, TSchema>; required?: string[] } | undefined;
    const parameters = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: query?.required?.includes(name) ?? false,
      schema,
    }));
    const detail = route.hooks?.detail ?? {};
    paths[route.path.replace(/:(\w+)/g, "{$1}")] = {
      get: {
        ...detail,
        description: "WebSocket: send `Upgrade: websocket`, then `{\"type\":\"subscribe\"|\"unsubscribe\",\"stream\":…,\"tag\"?,\"list\"?}` messages.",
        parameters,
        responses: {
          101: { description: "Switching Protocols: the WebSocket is open" },
          401: error("Missing or invalid access token"),
          403: error("The token's scopes or the login do not allow streaming"),
          404: error("Not a WebSocket upgrade request"),
          422: error("An app token: streaming needs a user"),
          429: error("Too many requests from this address, token or user (see the X-RateLimit-* headers)"),
        },
      },
    };
  }
  documentation.paths = { ...documentation.paths, ...paths };
}
