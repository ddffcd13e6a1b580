// The RSS 2.0 feed of a profile's public posts (/@username.rss), as Mastodon's: one item per post with its
// HTML content (a content warning first, then a rule) escaped as the description, and its media as
// Media RSS enclosures with their descriptions.
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import { SOFTWARE_VERSION } from "../../domain/limits.ts";
import type { PublicFeed } from "../../domain/public-pages/profile.ts";
import { presentAccount } from "../../entities/account.ts";
import { presentStatuses, type Status } from "../../entities/status.ts";
import { displayName, fullAcct } from "./status-html.ts";

/** Characters XML 1.0 does not allow are dropped; the five markup characters are escaped. */
function x(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const rfc822 = (iso: string) => new Date(iso).toUTCString();

function item(status: Status): string {
  const content = status.spoiler_text ? `<p>${escapeHtml(status.spoiler_text)}</p><hr />${status.content}` : status.content;
  const link = status.url ?? status.uri;
  const media = status.media_attachments
    .filter((m) => m.url)
    .map((m) => {
      const medium = m.type === "gifv" ? "video" : m.type;
      const description = m.description ? `<media:description type="plain">${x(m.description)}</media:description>` : "";
      return `<media:content url="${x(m.url!)}" medium="${medium}">${description}</media:content>`;
    });
  return `<item>
<guid isPermaLink="true">${x(link)}</guid>
<link>${x(link)}</link>
<pubDate>${rfc822(status.created_at)}</pubDate>
<description>${x(content)}</description>
${[...media, ...status.tags.map((tag) => `<category>${x(tag.name)}</category>`)].join("\n")}
</item>`;
}

export function rssFeed(config: Config, feed: PublicFeed): string {
  const account = presentAccount(config, feed.account);
  const statuses = presentStatuses(config, feed.statuses);
  const title = `${displayName(account)} (${fullAcct(config, account)})`;
  const built = statuses[0] ? `<lastBuildDate>${rfc822(statuses[0].created_at)}</lastBuildDate>\n` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:webfeeds="http://webfeeds.org/rss/1.0" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
<title>${x(title)}</title>
<description>${x(`Public posts from ${fullAcct(config, account)}`)}</description>
<link>${x(account.url)}</link>
<image><url>${x(account.avatar)}</url><title>${x(title)}</title><link>${x(account.url)}</link></image>
${built}<webfeeds:icon>${x(account.avatar)}</webfeeds:icon>
<generator>Warren ${x(SOFTWARE_VERSION)}</generator>
${statuses.map(item).join("\n")}
</channel>
</rss>
`;
}
