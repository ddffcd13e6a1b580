// POST /api/v1/admin/measures (admin:read, role permission view_dashboard, as Mastodon's dashboard policy): the
// dashboard's figures Warren keeps (domain/admin/measures.ts); other keys are left out of the answer.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { adminMeasures, MEASURE_KEYS } from "../../../../domain/admin/measures.ts";
import { AdminMeasureSchema, presentAdminMeasure } from "../../../../entities/admin-measure.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { ErrorBody } from "../../../schemas.ts";

const READ = { scopes: ["admin:read"], permission: "view_dashboard" } as const;

export const adminMeasureRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-measure-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/admin/measures",
      ({ body }) => {
        const keys = Array.isArray(body.keys) ? body.keys : [body.keys];
        return adminMeasures(deps, keys, body.start_at, body.end_at).map(presentAdminMeasure);
      },
      {
        admin: READ,
        body: t.Object({
          keys: t.Union([t.String(), t.Array(t.String(), { maxItems: 50 })], { description: `keys[]=…: of Mastodon's, ${MEASURE_KEYS.join(", ")} are served` }),
          start_at: t.String({ description: "First day (a date)" }),
          end_at: t.String({ description: "Last day (a date), at most 400 days after the first" }),
        }),
        response: { 200: t.Array(AdminMeasureSchema), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
        detail: { summary: "Dashboard figures per day: new and active users, opened and resolved reports", tags: ["admin"] },
      },
    );
