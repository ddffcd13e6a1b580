// Admin::DomainAllow (Mastodon's REST::Admin::DomainAllowSerializer).
import { t, type Static } from "elysia";
import { publicId } from "../lib/ids.ts";
import type { DomainAllowRecord } from "../model/moderation.ts";

export const AdminDomainAllowSchema = t.Object(
  { id: t.String(), domain: t.String(), created_at: t.String() },
  { description: "Mastodon Admin::DomainAllow" },
);
export type AdminDomainAllow = Static<typeof AdminDomainAllowSchema>;

export const presentAdminDomainAllow = (allow: DomainAllowRecord): AdminDomainAllow => ({
  id: publicId(allow.id),
  domain: allow.domain,
  created_at: new Date(allow.createdAt).toISOString(),
});
