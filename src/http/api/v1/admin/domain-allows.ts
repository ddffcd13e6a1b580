// Domain allows: GET/POST /api/v1/admin/domain_allows, GET/DELETE …/:id (admin:read or admin:write
// :domain_allows, role permission manage_federation, as Mastodon's DomainAllowPolicy). Without limited
// federation mode the list changes nothing (domain/admin/domain-allows.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { createDomainAllow, deleteDomainAllow, DOMAIN_ALLOWS_LIMIT, domainAllowsPage, findDomainAllow } from "../../../../domain/admin/domain-allows.ts";
import { AdminDomainAllowSchema, presentAdminDomainAllow } from "../../../../entities/admin-domain-allow.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { pageQuery, setIdListLink } from "../../../plugins/paging.ts";
import { EmptyObject, ErrorBody, pagingQuery } from "../../../schemas.ts";

const READ = { scopes: ["admin:read:domain_allows"], permission: "manage_federation" } as const;
const WRITE = { scopes: ["admin:write:domain_allows"], permission: "manage_federation" } as const;
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ description: "Allow id" }) });

export const adminDomainAllowRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-domain-allow-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/admin/domain_allows",
      ({ query, request, set }) => {
        const page = pageQuery(query, DOMAIN_ALLOWS_LIMIT);
        const allows = domainAllowsPage(deps.store, page);
        setIdListLink(deps.config.url, request, set, allows.map((row) => row.id), page.limit);
        return allows.map(presentAdminDomainAllow);
      },
      {
        admin: READ,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AdminDomainAllowSchema), ...errors },
        detail: { summary: "Allowed domains (for limited federation mode, which Warren does not have), newest first", tags: ["admin"] },
      },
    )
    .post("/api/v1/admin/domain_allows", async ({ body }) => presentAdminDomainAllow(await createDomainAllow(deps, body.domain)), {
      admin: WRITE,
      body: t.Object({ domain: t.Optional(t.String({ description: "Required: the domain to allow" })) }),
      response: { 200: AdminDomainAllowSchema, ...errors },
      detail: { summary: "Allow a domain (an allowed one is answered as it is)", tags: ["admin"] },
    })
    .get("/api/v1/admin/domain_allows/:id", ({ params }) => presentAdminDomainAllow(findDomainAllow(deps.store, params.id)), {
      admin: READ,
      params: IdParams,
      response: { 200: AdminDomainAllowSchema, ...errors },
      detail: { summary: "One allowed domain", tags: ["admin"] },
    })
    .delete(
      "/api/v1/admin/domain_allows/:id",
      async ({ params }) => {
        await deleteDomainAllow(deps, params.id);
        return {};
      },
      {
        admin: WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Remove a domain from the allowed list", tags: ["admin"] },
      },
    );
