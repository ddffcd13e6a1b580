// IP blocks: GET/POST /api/v1/admin/ip_blocks, GET/PUT/DELETE …/:id (admin:read or admin:write :ip_blocks,
// role permission manage_blocks, as Mastodon's IpBlockPolicy). Sign-up obeys them; `no_access` refuses every
// request from the network (plugins/ip-blocks.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import {
  createIpBlock,
  deleteIpBlock,
  findIpBlock,
  IP_BLOCKS_LIMIT,
  ipBlocksPage,
  updateIpBlock,
  type IpBlockInput,
} from "../../../../domain/admin/ip-blocks.ts";
import { AdminIpBlockSchema, presentAdminIpBlock } from "../../../../entities/admin-ip-block.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { pageQuery, setIdListLink } from "../../../plugins/paging.ts";
import { EmptyObject, ErrorBody, Nullable, pagingQuery } from "../../../schemas.ts";

const READ = { scopes: ["admin:read:ip_blocks"], permission: "manage_blocks" } as const;
const WRITE = { scopes: ["admin:write:ip_blocks"], permission: "manage_blocks" } as const;
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ description: "Block id" }) });

const IpBlockBody = t.Object({
  ip: t.Optional(t.String({ description: "Required when creating: an address, or a network as address/prefix" })),
  severity: t.Optional(t.String({ description: "Required when creating: sign_up_requires_approval, sign_up_block or no_access" })),
  comment: t.Optional(t.String({ description: "A note for the staff" })),
  expires_in: t.Optional(Nullable(t.String({ pattern: "^\\d{0,10}$", description: "Seconds until the block ends (empty or 0: never)" }))),
});

function input(body: { ip?: string; severity?: string; comment?: string; expires_in?: string | null } | null | undefined): IpBlockInput {
  const raw = body?.expires_in;
  return { ip: body?.ip, severity: body?.severity, comment: body?.comment, expiresIn: raw === undefined ? undefined : raw ? Number(raw) : null };
}

export const adminIpBlockRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-ip-block-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/admin/ip_blocks",
      ({ query, request, set }) => {
        const page = pageQuery(query, IP_BLOCKS_LIMIT);
        const blocks = ipBlocksPage(deps.store, page);
        setIdListLink(deps.config.url, request, set, blocks.map((row) => row.id), page.limit);
        return blocks.map(presentAdminIpBlock);
      },
      {
        admin: READ,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AdminIpBlockSchema), ...errors },
        detail: { summary: "Blocked networks, newest first (100 by default, at most 200)", tags: ["admin"] },
      },
    )
    .post("/api/v1/admin/ip_blocks", async ({ body }) => presentAdminIpBlock(await createIpBlock(deps, input(body))), {
      admin: WRITE,
      body: IpBlockBody,
      response: { 200: AdminIpBlockSchema, ...errors },
      detail: { summary: "Block a network for sign-ups, or for everything", tags: ["admin"] },
    })
    .get("/api/v1/admin/ip_blocks/:id", ({ params }) => presentAdminIpBlock(findIpBlock(deps.store, params.id)), {
      admin: READ,
      params: IdParams,
      response: { 200: AdminIpBlockSchema, ...errors },
      detail: { summary: "One IP block", tags: ["admin"] },
    })
    .put("/api/v1/admin/ip_blocks/:id", async ({ params, body }) => presentAdminIpBlock(await updateIpBlock(deps, params.id, input(body))), {
      admin: WRITE,
      params: IdParams,
      body: t.Optional(IpBlockBody),
      response: { 200: AdminIpBlockSchema, ...errors },
      detail: { summary: "Change an IP block", tags: ["admin"] },
    })
    .delete(
      "/api/v1/admin/ip_blocks/:id",
      async ({ params }) => {
        await deleteIpBlock(deps, params.id);
        return {};
      },
      {
        admin: WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Lift an IP block", tags: ["admin"] },
      },
    );
