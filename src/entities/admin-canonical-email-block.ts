// Admin::CanonicalEmailBlock (Mastodon's REST::Admin::CanonicalEmailBlockSerializer): every key of Mastodon 4.6.
import { t, type Static } from "elysia";
import { publicId } from "../lib/ids.ts";
import type { CanonicalEmailBlockRecord } from "../model/moderation.ts";

export const AdminCanonicalEmailBlockSchema = t.Object(
  {
    id: t.String(),
    canonical_email_hash: t.String({ description: "SHA-256 of the canonical address, hexadecimal" }),
  },
  { description: "Mastodon Admin::CanonicalEmailBlock" },
);
export type AdminCanonicalEmailBlock = Static<typeof AdminCanonicalEmailBlockSchema>;

export const presentAdminCanonicalEmailBlock = (block: CanonicalEmailBlockRecord): AdminCanonicalEmailBlock => ({
  id: publicId(block.id),
  canonical_email_hash: block.hash,
});
