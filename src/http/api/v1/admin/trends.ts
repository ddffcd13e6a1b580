// Staff review of trends (docs/trends.md): GET /api/v1/admin/trends/tags|statuses|links lists every candidate
// the refresh job found with `requires_review`; POST …/:id/approve and …/:id/reject record a review (admin:read
// / admin:write, role permission manage_taxonomies, as Mastodon's). Tags are addressed by name, links by id, link
// publishers (…/links/publishers) by domain.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { linkCandidates, publisherCandidates, reviewPublisher, reviewTrend, statusCandidates, tagCandidates } from "../../../../domain/trends/review.ts";
import { presentTag } from "../../../../entities/tag.ts";
import {
  AdminTrendLinkSchema,
  AdminTrendPublisherSchema,
  AdminTrendStatusSchema,
  AdminTrendTagSchema,
  presentTrendLink,
  presentTrendPublisher,
} from "../../../../entities/trends.ts";
import type { Viewer } from "../../../../domain/auth/viewer.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { publicId } from "../../../../lib/ids.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { statusFor } from "../../../present.ts";
import { ErrorBody } from "../../../schemas.ts";
import type { TrendKind } from "../../../../model/instance.ts";

const READ = { scopes: ["admin:read"], permission: "manage_taxonomies" } as const;
const WRITE = { scopes: ["admin:write"], permission: "manage_taxonomies" } as const;
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ maxLength: 100, description: "Tag name, status id or link id" }) });

export const adminTrendRoutes = (deps: Deps) => {
  const tags = (viewerId: string) =>
    tagCandidates(deps, viewerId).map((c) => ({
      ...presentTag(deps.config, c.item.name, c.item.history, c.item.flags),
      requires_review: c.requiresReview,
      trendable: c.trendable,
    }));
  const statuses = (viewer: Pick<Viewer, "account">) =>
    statusCandidates(deps).map((c) => ({ ...statusFor(deps, viewer, c.item), requires_review: c.requiresReview }));
  const links = () => linkCandidates(deps).map((c) => ({ ...presentTrendLink(deps.config, c.item, true), id: c.item.link.id, requires_review: c.requiresReview }));

  const review = (kind: TrendKind, verb: "approve" | "reject", summary: string) => {
    const schema = kind === "tags" ? AdminTrendTagSchema : kind === "statuses" ? AdminTrendStatusSchema : AdminTrendLinkSchema;
    return new Elysia({ name: `admin-trends-${kind}-${verb}`, seed: deps.store.dir })
      .use(authPlugin(deps))
      .post(
        `/api/v1/admin/trends/${kind}/:id/${verb}`,
        async ({ viewer, params }) => {
          const key = await reviewTrend(deps, kind, params.id, verb === "approve" ? "approved" : "rejected");
          const all: { id: string }[] = kind === "tags" ? tags(viewer.account.id) : kind === "statuses" ? statuses(viewer) : links();
          // The candidate as the list shows it (statuses by their public id).
          const found = all.find((item) => item.id === (kind === "statuses" ? publicId(key) : key));
          if (!found) throw new NotFound();
          return found as never;
        },
        { admin: WRITE, params: IdParams, response: { 200: schema, ...errors }, detail: { summary, tags: ["admin"] } },
      );
  };

  return new Elysia({ name: "admin-trend-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/admin/trends/tags", ({ viewer }) => tags(viewer.account.id), {
      admin: READ,
      response: { 200: t.Array(AdminTrendTagSchema), ...errors },
      detail: { summary: "Trending hashtag candidates with their review", tags: ["admin"] },
    })
    .get("/api/v1/admin/trends/statuses", ({ viewer }) => statuses(viewer), {
      admin: READ,
      response: { 200: t.Array(AdminTrendStatusSchema), ...errors },
      detail: { summary: "Trending status candidates with their review", tags: ["admin"] },
    })
    .get("/api/v1/admin/trends/links", () => links(), {
      admin: READ,
      response: { 200: t.Array(AdminTrendLinkSchema), ...errors },
      detail: { summary: "Trending link candidates with their review", tags: ["admin"] },
    })
    .use(review("tags", "approve", "Let a hashtag trend"))
    .use(review("tags", "reject", "Keep a hashtag out of trends"))
    .use(review("statuses", "approve", "Let a status trend"))
    .use(review("statuses", "reject", "Keep a status out of trends"))
    .use(review("links", "approve", "Let a link trend"))
    .use(review("links", "reject", "Keep a link out of trends"))
    .get("/api/v1/admin/trends/links/publishers", () => publisherCandidates(deps).map(presentTrendPublisher), {
      admin: READ,
      response: { 200: t.Array(AdminTrendPublisherSchema), ...errors },
      detail: { summary: "The sites of the trending link candidates, with their review", tags: ["admin"] },
    })
    .post(
      "/api/v1/admin/trends/links/publishers/:id/approve",
      async ({ params }) => presentTrendPublisher(await reviewPublisher(deps, params.id, "approved")),
      {
        admin: WRITE,
        params: IdParams,
        response: { 200: AdminTrendPublisherSchema, ...errors },
        detail: { summary: "Let a site's links trend (those without a review of their own)", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/trends/links/publishers/:id/reject",
      async ({ params }) => presentTrendPublisher(await reviewPublisher(deps, params.id, "rejected")),
      {
        admin: WRITE,
        params: IdParams,
        response: { 200: AdminTrendPublisherSchema, ...errors },
        detail: { summary: "Keep a site's links out of trends (those without a review of their own)", tags: ["admin"] },
      },
    );
};
