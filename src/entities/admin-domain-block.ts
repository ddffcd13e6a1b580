// Admin::DomainBlock and Admin::EmailDomainBlock (Mastodon's REST::Admin::DomainBlockSerializer and
// EmailDomainBlockSerializer, and the 422 body of a block that an existing, stricter one already covers).
// Every key of Mastodon 4.6 (reference/mastodon-4.6-keys.json).
import { t, type Static } from "elysia";
import { createHash } from "node:crypto";
import type { EmailBlockHistory } from "../domain/admin/domain-blocks-email.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";
import type { DomainBlockRecord, EmailDomainBlockRecord } from "../model/moderation.ts";

export const AdminDomainBlockSchema = t.Object(
  {
    id: t.String(),
    domain: t.String(),
    digest: t.String({ description: "SHA-256 of the domain, hexadecimal" }),
    created_at: t.String(),
    severity: t.Union([t.Literal("silence"), t.Literal("suspend"), t.Literal("noop")]),
    reject_media: t.Boolean(),
    reject_reports: t.Boolean(),
    private_comment: Nullable(t.String()),
    public_comment: Nullable(t.String()),
    obfuscate: t.Boolean(),
  },
  { description: "Mastodon Admin::DomainBlock" },
);
export type AdminDomainBlock = Static<typeof AdminDomainBlockSchema>;

export function presentAdminDomainBlock(block: DomainBlockRecord): AdminDomainBlock {
  return {
    id: publicId(block.id),
    domain: block.domain,
    digest: createHash("sha256").update(block.domain).digest("hex"),
    created_at: new Date(block.createdAt).toISOString(),
    severity: block.severity,
    reject_media: block.rejectMedia,
    reject_reports: block.rejectReports,
    private_comment: block.privateComment,
    public_comment: block.publicComment,
    obfuscate: block.obfuscate,
  };
}

/** 422 for a block an existing one already covers as strictly (Mastodon's ExistingDomainBlockErrorSerializer). */
export const ExistingDomainBlockErrorSchema = t.Object(
  { error: t.String(), existing_domain_block: AdminDomainBlockSchema },
  { description: "The block that already covers the domain" },
);

const HistorySchema = t.Object({
  day: t.String({ description: "UNIX time of the day's start, as a string" }),
  accounts: t.String({ description: "Distinct addresses refused that day" }),
  uses: t.String({ description: "Sign-up attempts refused that day" }),
});

export const AdminEmailDomainBlockSchema = t.Object(
  {
    id: t.String(),
    domain: t.String(),
    created_at: t.String(),
    history: t.Array(HistorySchema, { description: "The last 7 days, newest first" }),
    allow_with_approval: t.Boolean(),
  },
  { description: "Mastodon Admin::EmailDomainBlock" },
);
export type AdminEmailDomainBlock = Static<typeof AdminEmailDomainBlockSchema>;

export function presentAdminEmailDomainBlock(block: EmailDomainBlockRecord, history: EmailBlockHistory): AdminEmailDomainBlock {
  return {
    id: publicId(block.id),
    domain: block.domain,
    created_at: new Date(block.createdAt).toISOString(),
    history: history.map((day) => ({ day: String(day.day), accounts: String(day.accounts), uses: String(day.uses) })),
    allow_with_approval: block.allowWithApproval,
  };
}
