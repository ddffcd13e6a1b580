// Admin::IpBlock (Mastodon's REST::Admin::IpBlockSerializer): every key of Mastodon 4.6.
import { t, type Static } from "elysia";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";
import type { IpBlockRecord } from "../model/moderation.ts";

export const AdminIpBlockSchema = t.Object(
  {
    id: t.String(),
    ip: t.String({ description: "The network, as address/prefix" }),
    severity: t.Union([t.Literal("sign_up_requires_approval"), t.Literal("sign_up_block"), t.Literal("no_access")]),
    comment: t.String(),
    created_at: t.String(),
    expires_at: Nullable(t.String()),
  },
  { description: "Mastodon Admin::IpBlock" },
);
export type AdminIpBlock = Static<typeof AdminIpBlockSchema>;

export const presentAdminIpBlock = (block: IpBlockRecord): AdminIpBlock => ({
  id: publicId(block.id),
  ip: block.ip,
  severity: block.severity,
  comment: block.comment,
  created_at: new Date(block.createdAt).toISOString(),
  expires_at: block.expiresAt === null ? null : new Date(block.expiresAt).toISOString(),
});
