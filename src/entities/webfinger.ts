// WebFinger JRD and host-meta (API.md §13): how other servers find a local account's actor.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { mediaUrl } from "../media/storage.ts";
import { escapeHtml } from "../lib/html.ts";
import type { AccountRecord } from "../model/accounts.ts";

export const JrdSchema = t.Object(
  {
    subject: t.String(),
    aliases: t.Array(t.String()),
    links: t.Array(
      t.Object({
        rel: t.String(),
        type: t.Optional(t.String()),
        href: t.Optional(t.String()),
        template: t.Optional(t.String()),
      }),
    ),
  },
  { description: "WebFinger JSON Resource Descriptor" },
);

export const HostMetaJsonSchema = t.Object(
  { links: t.Array(t.Object({ rel: t.String(), template: t.String() })) },
  { description: "host-meta (JSON variant)" },
);

type Jrd = Static<typeof JrdSchema>;

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", avif: "image/avif" };

function avatarLink(config: Config, account: AccountRecord) {
  if (!account.avatarUrl || account.suspended) return [];
  const href = mediaUrl(config, account.avatarUrl)!;
  const extension = /\.([a-z0-9]+)(?:\?|$)/i.exec(href)?.[1]?.toLowerCase();
  const type = extension ? IMAGE_TYPES[extension] : undefined;
  return [{ rel: "http://webfinger.net/rel/avatar", ...(type ? { type } : {}), href }];
}

export function presentWebfinger(config: Config, account: AccountRecord): Jrd {
  return {
    subject: `acct:${account.username}@${config.domain}`,
    aliases: [account.url, account.uri],
    links: [
      { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: account.url },
      { rel: "self", type: "application/activity+json", href: account.uri },
      { rel: "http://ostatus.org/schema/1.0/subscribe", template: `${config.url}/authorize_interaction?uri={uri}` },
      ...avatarLink(config, account),
    ],
  };
}

const webfingerTemplate = (config: Config) => `${config.url}/.well-known/webfinger?resource={uri}`;

export function presentHostMetaXml(config: Config): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
  <Link rel="lrdd" template="${escapeHtml(webfingerTemplate(config))}"/>
</XRD>
`;
}

export function presentHostMetaJson(config: Config): Static<typeof HostMetaJsonSchema> {
  return { links: [{ rel: "lrdd", template: webfingerTemplate(config) }] };
}
