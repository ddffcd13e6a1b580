// Instance-wide domain blocks: GET/POST /api/v1/admin/domain_blocks, GET/PUT/DELETE …/:id (admin:read or
// admin:write :domain_blocks, role permission manage_federation), and e-mail domain blocks: GET/POST
// /api/v1/admin/email_domain_blocks, GET/DELETE …/:id (:email_domain_blocks, manage_blocks), as Mastodon's
// DomainBlockPolicy and EmailDomainBlockPolicy have them.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import {
  createDomainBlock,
  deleteDomainBlock,
  DOMAIN_BLOCKS_LIMIT,
  domainBlocksPage,
  ExistingDomainBlock,
  findDomainBlock,
  MAX_COMMENT_LENGTH,
  updateDomainBlock,
  type DomainBlockInput,
} from "../../../../domain/admin/domain-blocks.ts";
import {
  createEmailDomainBlock,
  deleteEmailDomainBlock,
  EMAIL_DOMAIN_BLOCKS_LIMIT,
  emailBlockHistory,
  emailDomainBlocksPage,
  findEmailDomainBlock,
} from "../../../../domain/admin/domain-blocks-email.ts";
import {
  AdminDomainBlockSchema,
  AdminEmailDomainBlockSchema,
  ExistingDomainBlockErrorSchema,
  presentAdminDomainBlock,
  presentAdminEmailDomainBlock,
} from "../../../../entities/admin-domain-block.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { pageQuery, setIdListLink } from "../../../plugins/paging.ts";
import { EmptyObject, ErrorBody, Flag, Nullable, pagingQuery, toBool, type FlagValue } from "../../../schemas.ts";
import type { EmailDomainBlockRecord } from "../../../../model/moderation.ts";

const DOMAIN_READ = { scopes: ["admin:read:domain_blocks"], permission: "manage_federation" } as const;
const DOMAIN_WRITE = { scopes: ["admin:write:domain_blocks"], permission: "manage_federation" } as const;
const EMAIL_READ = { scopes: ["admin:read:email_domain_blocks"], permission: "manage_blocks" } as const;
const EMAIL_WRITE = { scopes: ["admin:write:email_domain_blocks"], permission: "manage_blocks" } as const;
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ description: "Block id" }) });

const comment = (description: string) =>
  t.Optional(Nullable(t.String({ description: `${description} (at most ${MAX_COMMENT_LENGTH} characters)` })));

const DomainBlockBody = t.Object({
  domain: t.Optional(t.String({ description: "Required when creating: the domain; its subdomains are covered too" })),
  severity: t.Optional(t.String({ description: "silence (default), suspend or noop" })),
  reject_media: t.Optional(Flag({ description: "Do not store media from the domain (default false)" })),
  reject_reports: t.Optional(Flag({ description: "Ignore reports from the domain (default false)" })),
  private_comment: comment("A note for the staff"),
  public_comment: comment("The reason shown publicly"),
  obfuscate: t.Optional(Flag({ description: "Mask the domain partly where it is shown publicly (default false)" })),
});

type DomainBlockBodyValue = {
  domain?: string;
  severity?: string;
  reject_media?: FlagValue;
  reject_reports?: FlagValue;
  private_comment?: string | null;
  public_comment?: string | null;
  obfuscate?: FlagValue;
};

const flag = (value: FlagValue | undefined) => (value === undefined ? undefined : toBool(value));

function domainBlockInput(body: DomainBlockBodyValue | null | undefined): DomainBlockInput {
  return {
    domain: body?.domain,
    severity: body?.severity,
    rejectMedia: flag(body?.reject_media),
    rejectReports: flag(body?.reject_reports),
    privateComment: body?.private_comment,
    publicComment: body?.public_comment,
    obfuscate: flag(body?.obfuscate),
  };
}

const domainBlockRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-domain-block-list-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/admin/domain_blocks",
      ({ query, request, set }) => {
        const page = pageQuery(query, DOMAIN_BLOCKS_LIMIT);
        const blocks = domainBlocksPage(deps.store, page);
        setIdListLink(deps.config.url, request, set, blocks.map((b) => b.id), page.limit);
        return blocks.map(presentAdminDomainBlock);
      },
      {
        admin: DOMAIN_READ,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AdminDomainBlockSchema), ...errors },
        detail: { summary: "Blocked domains, newest first (100 by default, at most 200)", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/domain_blocks",
      async ({ body, set }) => {
        try {
          return presentAdminDomainBlock(await createDomainBlock(deps, domainBlockInput(body)));
        } catch (error) {
          if (!(error instanceof ExistingDomainBlock)) throw error;
          set.status = 422;
          return { error: error.message, existing_domain_block: presentAdminDomainBlock(error.existing) };
        }
      },
      {
        admin: DOMAIN_WRITE,
        body: DomainBlockBody,
        response: { 200: AdminDomainBlockSchema, 401: ErrorBody, 403: ErrorBody, 422: t.Union([ExistingDomainBlockErrorSchema, ErrorBody]) },
        detail: {
          summary: "Block a domain (422 naming the existing block when one covers it as strictly already)",
          tags: ["admin"],
        },
      },
    )
    .get("/api/v1/admin/domain_blocks/:id", ({ params }) => presentAdminDomainBlock(findDomainBlock(deps.store, params.id)), {
      admin: DOMAIN_READ,
      params: IdParams,
      response: { 200: AdminDomainBlockSchema, ...errors },
      detail: { summary: "One blocked domain", tags: ["admin"] },
    })
    .put(
      "/api/v1/admin/domain_blocks/:id",
      async ({ params, body }) => presentAdminDomainBlock(await updateDomainBlock(deps, params.id, domainBlockInput(body))),
      {
        admin: DOMAIN_WRITE,
        params: IdParams,
        body: t.Optional(DomainBlockBody),
        response: { 200: AdminDomainBlockSchema, ...errors },
        detail: { summary: "Change a domain block (the domain itself stays)", tags: ["admin"] },
      },
    )
    .delete(
      "/api/v1/admin/domain_blocks/:id",
      async ({ params }) => {
        await deleteDomainBlock(deps, params.id);
        return {};
      },
      {
        admin: DOMAIN_WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Lift a domain block", tags: ["admin"] },
      },
    );

const emailDomainBlockRoutes = (deps: Deps) => {
  const presentEmail = (block: EmailDomainBlockRecord) => presentAdminEmailDomainBlock(block, emailBlockHistory(deps.store, block));
  return new Elysia({ name: "admin-email-domain-block-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/admin/email_domain_blocks",
      ({ query, request, set }) => {
        const page = pageQuery(query, EMAIL_DOMAIN_BLOCKS_LIMIT);
        const blocks = emailDomainBlocksPage(deps.store, page);
        setIdListLink(deps.config.url, request, set, blocks.map((b) => b.id), page.limit);
        return blocks.map(presentEmail);
      },
      {
        admin: EMAIL_READ,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AdminEmailDomainBlockSchema), ...errors },
        detail: { summary: "Blocked e-mail domains, newest first (100 by default, at most 200)", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/email_domain_blocks",
      async ({ body }) =>
        presentEmail(
          await createEmailDomainBlock(deps, {
            domain: body?.domain,
            allowWithApproval: body?.allow_with_approval === undefined ? undefined : toBool(body.allow_with_approval),
          }),
        ),
      {
        admin: EMAIL_WRITE,
        body: t.Object({
          domain: t.Optional(t.String({ description: "Required: sign-ups with addresses at it (or a subdomain) are refused" })),
          allow_with_approval: t.Optional(Flag({ description: "Hold such sign-ups for approval instead (default false)" })),
        }),
        response: { 200: AdminEmailDomainBlockSchema, ...errors },
        detail: { summary: "Block an e-mail domain for sign-ups", tags: ["admin"] },
      },
    )
    .get("/api/v1/admin/email_domain_blocks/:id", ({ params }) => presentEmail(findEmailDomainBlock(deps.store, params.id)), {
      admin: EMAIL_READ,
      params: IdParams,
      response: { 200: AdminEmailDomainBlockSchema, ...errors },
      detail: { summary: "One blocked e-mail domain, with its last week of refused sign-ups", tags: ["admin"] },
    })
    .delete(
      "/api/v1/admin/email_domain_blocks/:id",
      async ({ params }) => {
        await deleteEmailDomainBlock(deps, params.id);
        return {};
      },
      {
        admin: EMAIL_WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Lift an e-mail domain block", tags: ["admin"] },
      },
    );
};

export const adminDomainBlockRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-domain-block-routes", seed: deps.store.dir })
    .use(domainBlockRoutes(deps))
    .use(emailDomainBlockRoutes(deps));
