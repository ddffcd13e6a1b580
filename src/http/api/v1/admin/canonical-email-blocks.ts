// Canonical e-mail blocks: GET/POST /api/v1/admin/canonical_email_blocks, GET/DELETE …/:id and POST …/test
// (admin:read or admin:write :canonical_email_blocks, role permission manage_blocks, as Mastodon's
// CanonicalEmailBlockPolicy). Sign-up refuses a blocked address (domain/admin/canonical-email-blocks.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import {
  CANONICAL_EMAIL_BLOCKS_LIMIT,
  canonicalEmailBlocksMatching,
  canonicalEmailBlocksPage,
  createCanonicalEmailBlock,
  deleteCanonicalEmailBlock,
  findCanonicalEmailBlock,
} from "../../../../domain/admin/canonical-email-blocks.ts";
import { AdminCanonicalEmailBlockSchema, presentAdminCanonicalEmailBlock } from "../../../../entities/admin-canonical-email-block.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { pageQuery, setIdListLink } from "../../../plugins/paging.ts";
import { EmptyObject, ErrorBody, pagingQuery } from "../../../schemas.ts";

const READ = { scopes: ["admin:read:canonical_email_blocks"], permission: "manage_blocks" } as const;
const WRITE = { scopes: ["admin:write:canonical_email_blocks"], permission: "manage_blocks" } as const;
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ description: "Block id" }) });

export const adminCanonicalEmailBlockRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-canonical-email-block-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/admin/canonical_email_blocks",
      ({ query, request, set }) => {
        const page = pageQuery(query, CANONICAL_EMAIL_BLOCKS_LIMIT);
        const blocks = canonicalEmailBlocksPage(deps.store, page);
        setIdListLink(deps.config.url, request, set, blocks.map((row) => row.id), page.limit);
        return blocks.map(presentAdminCanonicalEmailBlock);
      },
      {
        admin: READ,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AdminCanonicalEmailBlockSchema), ...errors },
        detail: { summary: "Blocked canonical e-mail addresses, newest first (100 by default, at most 200)", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/canonical_email_blocks",
      async ({ body }) =>
        presentAdminCanonicalEmailBlock(await createCanonicalEmailBlock(deps, { email: body.email, canonicalEmailHash: body.canonical_email_hash })),
      {
        admin: WRITE,
        body: t.Object({
          email: t.Optional(t.String({ description: "An address: its canonical form is blocked (wins over canonical_email_hash)" })),
          canonical_email_hash: t.Optional(t.String({ description: "Or the SHA-256 of a canonical address, hexadecimal" })),
        }),
        response: { 200: AdminCanonicalEmailBlockSchema, ...errors },
        detail: { summary: "Block an address (and its variants with dots or a +tag) for sign-ups", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/canonical_email_blocks/test",
      ({ body }) => canonicalEmailBlocksMatching(deps.store, body.email).map(presentAdminCanonicalEmailBlock),
      {
        admin: READ,
        body: t.Object({ email: t.String({ description: "The address to test" }) }),
        response: { 200: t.Array(AdminCanonicalEmailBlockSchema), ...errors, 400: ErrorBody },
        detail: { summary: "The blocks an address falls under (none or one)", tags: ["admin"] },
      },
    )
    .get("/api/v1/admin/canonical_email_blocks/:id", ({ params }) => presentAdminCanonicalEmailBlock(findCanonicalEmailBlock(deps.store, params.id)), {
      admin: READ,
      params: IdParams,
      response: { 200: AdminCanonicalEmailBlockSchema, ...errors },
      detail: { summary: "One canonical e-mail block", tags: ["admin"] },
    })
    .delete(
      "/api/v1/admin/canonical_email_blocks/:id",
      async ({ params }) => {
        await deleteCanonicalEmailBlock(deps, params.id);
        return {};
      },
      {
        admin: WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Lift a canonical e-mail block", tags: ["admin"] },
      },
    );
