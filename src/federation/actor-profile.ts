// What a fetched actor says of itself, as an account record keeps it (remote-accounts.ts stores it): names as
// plain text, bios and field values sanitised, http(s) URLs only, lists bounded, custom emojis only as embedded
// and used. Mastodon, GoToSocial, Misskey and Pleroma actors alike; what they send is hostile until cleaned.
import { Application, Group, Image, Link, PropertyValue, Service, type Actor } from "@fedify/vocab";
import { exportSpki } from "@fedify/vocab-runtime";
import { plainText, sanitizeHtml } from "../lib/sanitize.ts";
import { emojisUsed, emojiTags } from "./note-emojis.ts";
import { readOptions } from "./note-attachments.ts";
import { NOTE_LIMITS } from "./note-checks.ts";
import type { ProfileField } from "../model/accounts.ts";

/** An http(s) URL from a link or URL value, or null: a `javascript:` or `data:` profile or image URL would
 * reach the API, the web pages' links and the mentions rendered in local statuses. */
function href(value: URL | Link | null | undefined): string | null {
  const url = value instanceof URL ? value : value?.href;
  return url && (url.protocol === "http:" || url.protocol === "https:") ? url.href : null;
}

async function imageUrl(image: Promise<Image | null>): Promise<string | null> {
  try {
    const found = await image;
    return found ? href(found.url as URL | Link | null) : null;
  } catch {
    return null;
  }
}

/** The actor's profile fields (PropertyValue attachments), cleaned: names as plain text, values sanitised. */
async function profileFields(actor: Actor): Promise<ProfileField[]> {
  const fields: ProfileField[] = [];
  for await (const attachment of actor.getAttachments()) {
    if (attachment instanceof PropertyValue && attachment.name && attachment.value) {
      fields.push({ name: plainText(attachment.name.toString()).slice(0, 255), value: sanitizeHtml(attachment.value.toString().slice(0, 10_000)), verifiedAt: null });
    }
  }
  return fields;
}

/** The PEM of the actor's first public key that the actor itself owns, or null. */
export async function ownPublicKeyPem(actor: Actor, uri: URL): Promise<string | null> {
  for await (const key of actor.getPublicKeys()) {
    if (key.publicKey && key.ownerId?.href === uri.href) return await exportSpki(key.publicKey);
  }
  return null;
}

/** What a fetched actor says of itself, as the account record keeps it. */
export async function actorProfile(actor: Actor, uri: URL, username: string, host: string) {
  const fields = await profileFields(actor);
  const [avatarUrl, headerUrl] = await Promise.all([imageUrl(actor.getIcon()), imageUrl(actor.getImage())]);
  // Custom emojis its name, bio and fields use (note-emojis.ts), read only as embedded.
  const texts = [actor.name?.toString() ?? "", actor.summary?.toString() ?? "", ...fields.flatMap((field) => [field.name, field.value])];
  const emojis = await emojisUsed(await emojiTags(actor.getTags(readOptions), NOTE_LIMITS.tags), texts);
  return {
    username,
    domain: host,
    // What other servers send is hostile until cleaned: names as plain text, bios with Mastodon's tags only.
    displayName: plainText(actor.name?.toString() ?? "").slice(0, 255),
    note: sanitizeHtml((actor.summary?.toString() ?? "").slice(0, 50_000)),
    fields: fields.slice(0, 16),
    emojis,
    locked: actor.manuallyApprovesFollowers ?? false,
    bot: actor instanceof Service || actor instanceof Application,
    group: actor instanceof Group,
    discoverable: actor.discoverable ?? false,
    indexable: actor.indexable ?? false,
    avatarUrl,
    headerUrl,
    uri: uri.href,
    url: href(actor.url as URL | Link | null) ?? uri.href,
    inbox: actor.inboxId!.href, // checked by storeActor
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    outbox: actor.outboxId?.href ?? "",
    followersUrl: actor.followersId?.href ?? "",
    followingUrl: actor.followingId?.href ?? "",
    // Where it may have moved from (account migration, moves.ts): http(s) URIs only, a bounded list.
    alsoKnownAs: actor.aliasIds.filter((id) => id.protocol === "https:" || id.protocol === "http:").slice(0, 16).map((id) => id.href),
  };
}
