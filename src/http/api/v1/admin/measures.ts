// The admin dashboard's data (admin:read, role permission view_dashboard, as Mastodon's dashboard policy):
// POST /api/v1/admin/measures (domain/admin/measures.ts), /dimensions (dimensions.ts) and /retention
// (retention.ts). Keys Warren keeps no record of are left out of the answers.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { adminMeasures, MEASURE_KEYS } from "../../../../domain/admin/measures.ts";
import { AdminMeasureSchema, presentAdminMeasure } from "../../../../entities/admin-measure.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { ErrorBody } from "../../../schemas.ts";
import { adminDimensions, DIMENSION_KEYS } from "../../../../domain/admin/dimensions.ts";
import { adminRetention } from "../../../../domain/admin/retention.ts";
import { AdminCohortSchema, AdminDimensionSchema, presentAdminCohort, presentAdminDimension } from "../../../../entities/admin-dimension.ts";

const READ = { scopes: ["admin:read"], permission: "view_dashboard" } as const;
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

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
        response: { 200: t.Array(AdminMeasureSchema), ...errors },
        detail: { summary: "Dashboard figures per day: new and active users, opened and resolved reports", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/dimensions",
      async ({ body }) => {
        const keys = Array.isArray(body.keys) ? body.keys : [body.keys];
        const limit = Math.min(Math.max(Number(body.limit ?? 10) || 10, 1), 100);
        return (await adminDimensions(deps, keys, body.start_at, body.end_at, limit)).map(presentAdminDimension);
      },
      {
        admin: READ,
        body: t.Object({
          keys: t.Union([t.String(), t.Array(t.String(), { maxItems: 50 })], { description: `keys[]=…: of Mastodon's, ${DIMENSION_KEYS.join(", ")} are served` }),
          start_at: t.Optional(t.String({ description: "First day (a date); without it the period has no start" })),
          end_at: t.Optional(t.String({ description: "Last day (a date); without it the period runs to today" })),
          limit: t.Optional(t.String({ pattern: "^\\d{1,4}$", description: "Items per key, 10 by default, at most 100" })),
        }),
        response: { 200: t.Array(AdminDimensionSchema), ...errors },
        detail: { summary: "Dashboard breakdowns: languages, servers, sign-up sources, software versions, space usage", tags: ["admin"] },
      },
    )
    .post("/api/v1/admin/retention", ({ body }) => adminRetention(deps, body.start_at, body.end_at, body.frequency).map(presentAdminCohort), {
      admin: READ,
      body: t.Object({
        start_at: t.String({ description: "First day (a date)" }),
        end_at: t.String({ description: "Last day (a date)" }),
        frequency: t.Union([t.Literal("day"), t.Literal("month")], { description: "Cohorts by day or by month" }),
      }),
      response: { 200: t.Array(AdminCohortSchema), ...errors },
      detail: { summary: "Sign-up cohorts and how many of them came back (signed in) in each later period", tags: ["admin"] },
    });
