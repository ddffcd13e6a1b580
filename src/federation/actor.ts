// Local accounts → ActivityPub actors (API.md §14.2). The only place an AccountRecord becomes an actor.
import type { ActorKeyPair, Context, RequestContext } from "@fedify/fedify";
import { Application, Endpoints, Hashtag, Image, Mention, Person, PropertyValue, Service } from "@fedify/vocab";
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import { mediaUrl } from "../media/storage.ts";
import { fieldValueHtml, profileTags } from "../domain/accounts/field-html.ts";
import { emojiTags } from "./emojis.ts";
import { CompactedPerson, CompactedService } from "./mastodon-terms.ts";
import type { AccountRecord } from "../model/accounts.ts";

const DAY_MS = 86_400_000;

const MEDIA_TYPES: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", avif: "image/avif",
};

function absolute(config: Config, url: string): URL {
  return new URL(mediaUrl(config, url)!);
}

function image(config: Config, url: string | null, description: string): Image | null {
  if (!url) return null;
  const href = absolute(config, url);
  const extension = href.pathname.split(".").pop()?.toLowerCase() ?? "";
  return new Image({ url: href, mediaType: MEDIA_TYPES[extension] ?? null, name: description || null });
}

/** Midnight (UTC) of the creation day, as Mastodon publishes it. */
function published(ms: number): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(ms - (ms % DAY_MS));
}

/** The actor's `tag`: the bio's mentions and hashtags (as written), and the local emojis of its name, bio and
 * fields, as Mastodon's ActorSerializer lists its `virtual_tags`. */
function actorTags(store: Store, config: Config, account: AccountRecord): (Mention | Hashtag | ReturnType<typeof emojiTags>[number])[] {
  const { mentions, hashtags } = profileTags(store, config, account);
  const fieldTexts = account.fields.flatMap((field) => [field.name, field.value]);
  return [
    ...mentions.map((mention) => new Mention({ href: new URL(mention.uri), name: mention.acct })),
    ...hashtags.map((name) => new Hashtag({ href: new URL(`${config.url}/tags/${encodeURIComponent(name.toLowerCase())}`), name: `#${name}` })),
    ...emojiTags(store, config, account.displayName, account.noteSource, ...fieldTexts),
  ];
}

/** The actor of a local account: `Service` for bots, `Person` otherwise. A suspended one shows only what
 * Mastodon shows of it: who it is, its keys and endpoints, `suspended: true`. */
export function localActor(ctx: Context<unknown>, store: Store, config: Config, account: AccountRecord, keys: ActorKeyPair[]): Person | Service {
  const identifier = account.username;
  const suspended = account.suspended;
  const values = {
    id: ctx.getActorUri(identifier),
    preferredUsername: account.username,
    name: suspended ? account.username : account.displayName || account.username,
    summary: suspended ? "" : account.note,
    url: new URL(account.url),
    manuallyApprovesFollowers: account.locked,
    discoverable: suspended ? false : account.discoverable,
    indexable: suspended ? false : account.indexable,
    memorial: account.memorial,
    suspended,
    published: published(account.createdAt),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    featured: ctx.getFeaturedUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    icon: suspended ? null : image(config, account.avatarUrl, account.avatarDescription),
    image: suspended ? null : image(config, account.headerUrl, account.headerDescription),
    attachments: suspended ? [] : account.fields.map((field) => new PropertyValue({ name: field.name, value: fieldValueHtml(account, field, config.url) })),
    tags: suspended ? [] : actorTags(store, config, account),
    // Account migration (docs/federation.md "Moving accounts"): where it may move from, and where it went.
    aliases: (account.alsoKnownAs ?? []).map((uri) => new URL(uri)),
    successor: account.movedToUri ? new URL(account.movedToUri) : null,
  };
  return account.bot ? new CompactedService(values) : new CompactedPerson(values);
}

/** The instance actor (Mastodon's `/actor`): signs fetches no user is behind; preferredUsername is the domain. */
export function instanceActor(ctx: RequestContext<unknown>, identifier: string, keys: ActorKeyPair[]): Application {
  const domain = new URL(ctx.origin).host;
  return new Application({
    id: ctx.getActorUri(identifier),
    preferredUsername: domain,
    name: domain,
    url: new URL(`${ctx.origin}/about/more?instance_actor=true`),
    manuallyApprovesFollowers: true,
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
  });
}
