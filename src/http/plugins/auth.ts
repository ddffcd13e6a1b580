// Token → viewer, and the per-route scope check, as Elysia macros:
//   { auth: ["read:accounts"] }      user token required (401 bad token, 403 scope, 422 app token)
//   { appAuth: ["read"] }            any valid token (app or user)
//   { maybeAuth: ["read:statuses"] } public route: no token is fine, a token present must be valid and scoped
//   { admin: { scopes: ["admin:read:accounts"], permission: "manage_users" } }
//                                    staff route: a user token with the scope whose role has the permission
//                                    (403 NotPermitted otherwise, Mastodon's "This action is not allowed")
// Routes name the most specific scopes they accept; broader granted scopes imply them (domain/scopes.ts).
import { Elysia } from "elysia";
import { Forbidden, NotPermitted, Unauthorized } from "../../lib/errors.ts";
import { roleCan, type Permission } from "../../domain/accounts/roles.ts";
import { grants } from "../../domain/scopes.ts";
import { requireUser, viewerFromToken, type UserViewer, type Viewer } from "../../domain/auth/viewer.ts";
import type { Deps } from "../../deps.ts";
import { beforeBody } from "./before-body.ts";

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header) {
    // "Bearer <token>", scheme case-insensitive (RFC 6750); anything else is not a bearer token.
    if (header.length < 8 || header.charCodeAt(6) !== 32 || header.slice(0, 6).toLowerCase() !== "bearer") return null;
    const token = header.slice(7).trim();
    return token && !/\s/.test(token) ? token : null;
  }
  const url = request.url;
  const q = url.indexOf("?");
  if (q < 0 || !url.includes("_token=", q)) return null;
  const params = new URLSearchParams(url.slice(q + 1));
  return params.get("access_token") ?? params.get("bearer_token");
}

function authenticate(deps: Deps, request: Request, scopes: readonly string[], raw = bearerToken(request)): Viewer {
  const viewer = raw ? viewerFromToken(deps.store, raw) : null;
  if (!viewer) throw new Unauthorized();
  if (!grants(viewer.scopes, scopes)) throw new Forbidden("This action is outside the authorized scopes");
  return viewer;
}

/**
 * The token is checked before the body is read (the body parser runs these transform hooks first, see
 * before-body.ts; Elysia alone would parse the body before any transform) and, for requests without a body,
 * in the transform phase, before parameters are validated: as on Mastodon, a bad token is 401 (and a
 * missing scope 403) whatever the parameters. A check that already ran for the request is not repeated.
 * `resolve` then hands the viewer on.
 */
type Checked = { checkedViewer?: Viewer | null };

export const authPlugin = (deps: Deps) =>
  new Elysia({ name: "warren-auth", seed: deps.store.dir }).macro({
    /** A user token with one of these scopes. */
    auth: (scopes: readonly string[]) => ({
      detail: { security: [{ bearer: [...scopes] }] },
      transform: beforeBody((context) => {
        if ((context as Checked).checkedViewer !== undefined) return;
        (context as Checked).checkedViewer = requireUser(authenticate(deps, context.request, scopes));
      }),
      resolve(context): { viewer: UserViewer } {
        return { viewer: (context as Checked).checkedViewer as UserViewer };
      },
    }),
    /** A staff member's user token: one of the scopes, and a role with one of the permissions. */
    admin: (rule: { scopes: readonly string[]; permission: Permission | readonly Permission[] }) => ({
      detail: { security: [{ bearer: [...rule.scopes] }] },
      transform: beforeBody((context) => {
        if ((context as Checked).checkedViewer !== undefined) return;
        const viewer = requireUser(authenticate(deps, context.request, rule.scopes));
        const permissions = typeof rule.permission === "string" ? [rule.permission] : rule.permission;
        if (!roleCan(viewer.user.role, ...permissions)) throw new NotPermitted();
        (context as Checked).checkedViewer = viewer;
      }),
      resolve(context): { viewer: UserViewer } {
        return { viewer: (context as Checked).checkedViewer as UserViewer };
      },
    }),
    /** Any valid token (app or user) with one of these scopes. */
    appAuth: (scopes: readonly string[]) => ({
      detail: { security: [{ bearer: [...scopes] }] },
      transform: beforeBody((context) => {
        if ((context as Checked).checkedViewer !== undefined) return;
        (context as Checked).checkedViewer = authenticate(deps, context.request, scopes);
      }),
      resolve(context): { viewer: Viewer } {
        return { viewer: (context as Checked).checkedViewer as Viewer };
      },
    }),
    /** No token needed; a token that is present must be valid and carry one of these scopes. */
    maybeAuth: (scopes: readonly string[]) => ({
      detail: { security: [{}, { bearer: [...scopes] }] },
      transform: beforeBody((context) => {
        if ((context as Checked).checkedViewer !== undefined) return;
        const { request } = context;
        const raw = bearerToken(request);
        const anonymous = !raw && !request.headers.has("authorization");
        (context as Checked).checkedViewer = anonymous ? null : authenticate(deps, request, scopes, raw);
      }),
      resolve(context): { viewer: Viewer | null } {
        return { viewer: (context as Checked).checkedViewer ?? null };
      },
    }),
  });
