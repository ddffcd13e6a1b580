// The public profile page (/@username): header, avatar, name, handle, bio, profile fields with rel="me" on
// their links, counts, then pinned posts (first page) and public posts, with a link to older ones. A
// suspended account shows a notice instead (its Account entity is blanked as Mastodon blanks it).
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import { publicId } from "../../lib/ids.ts";
import { htmlToText } from "../../domain/filters/text.ts";
import type { PublicProfile } from "../../domain/public-pages/profile.ts";
import { presentAccount, type Account } from "../../entities/account.ts";
import { presentStatuses } from "../../entities/status.ts";
import { htmlPage, type Head } from "./layout.ts";
import { counted, displayName, fullAcct, statusHtml } from "./status-html.ts";

const e = escapeHtml;

/** The profile's head: what link previews and feed readers find. */
function profileHead(config: Config, account: Account, maxId: string | null): Head {
  const handle = fullAcct(config, account);
  const counts = `${counted(account.statuses_count, "Post", "Posts")}, ${account.following_count} Following, ${counted(account.followers_count, "Follower", "Followers")}`;
  const bio = htmlToText(account.note);
  return {
    title: `${displayName(account)} (${handle})`,
    description: bio ? `${counts} · ${bio}` : counts,
    url: maxId ? `${account.url}?max_id=${publicId(maxId)}` : account.url,
    image: account.avatar,
    ogType: "profile",
    alternates: [
      { type: "application/activity+json", href: account.uri },
      { type: "application/rss+xml", href: `${account.url}.rss`, title: `Posts of ${handle}` },
    ],
    noindex: account.suspended === true,
  };
}

function fieldsHtml(account: Account): string {
  if (account.fields.length === 0) return "";
  // Names are plain text; values are HTML (local ones linkified here with rel="me", remote ones sanitised).
  const rows = account.fields.map((field) => `<dt>${e(field.name)}</dt><dd>${field.value}</dd>`).join("\n");
  return `<dl>\n${rows}\n</dl>`;
}

function identityHtml(config: Config, account: Account): string {
  const headerAlt = e(account.header_description);
  return `<img class="header" src="${e(account.header)}" alt="${headerAlt}" width="1500" height="500">
<img class="avatar" src="${e(account.avatar)}" alt="${e(account.avatar_description)}" width="96" height="96">
<h1>${e(displayName(account))}</h1>
<p class="acct">${e(fullAcct(config, account))}</p>`;
}

export function profilePage(config: Config, profile: PublicProfile): string {
  const account = presentAccount(config, profile.account);
  const head = profileHead(config, account, profile.maxId);
  if (account.suspended) {
    return htmlPage(config, head, `<section class="profile">${identityHtml(config, account)}</section>
<p class="notice" role="status">This account has been suspended by the staff of ${e(config.domain)}; its profile and posts are not shown.</p>`);
  }
  const moved = profile.movedTo ? presentAccount(config, profile.movedTo) : null;
  // Mastodon's moved-account notice: the profile stays readable, the new account is named and linked first.
  const redirect = moved
    ? `<p class="notice" role="status">${e(displayName(account))} has moved to <a href="${e(moved.url)}">${e(fullAcct(config, moved))}</a>.</p>\n`
    : "";
  const pinned = presentStatuses(config, profile.pinned);
  const posts = presentStatuses(config, profile.statuses);
  const next = profile.nextMaxId ? `<nav><a rel="next" href="${e(account.url)}?max_id=${publicId(profile.nextMaxId)}">Older posts</a></nav>` : "";
  const sections = [
    pinned.length ? `<h2>Pinned</h2>\n${pinned.map((s) => statusHtml(config, s)).join("\n")}` : "",
    `<h2>Posts</h2>`,
    posts.length ? posts.map((s) => statusHtml(config, s)).join("\n") : "<p>No public posts here.</p>",
    next,
  ];
  return htmlPage(config, head, `${redirect}<section class="profile">${identityHtml(config, account)}
${account.note}
${fieldsHtml(account)}
<ul class="counts"><li><strong>${account.statuses_count}</strong> posts</li><li><strong>${account.following_count}</strong> following</li><li><strong>${account.followers_count}</strong> followers</li></ul>
</section>
${sections.filter(Boolean).join("\n")}`);
}
