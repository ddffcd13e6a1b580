// One post as HTML, from the Status entity an anonymous client gets: its author, its content (HTML that was
// rendered here or sanitised on arrival, shown as stored), its media with their descriptions as alt text,
// its poll, and its date linking to its page. A content warning hides the rest in a <details>.
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Account } from "../../entities/account.ts";
import type { MediaAttachment } from "../../entities/media-attachment.ts";
import type { Status } from "../../entities/status.ts";

const e = escapeHtml;

// Made on the first page, not at start-up: a DateTimeFormat loads ICU's data (5–10 ms of the server's start).
let dates: Intl.DateTimeFormat | null = null;
const dateFormat = () => (dates ??= new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }));

export const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** `@alice@example.com`, for local accounts too. */
export function fullAcct(config: Config, account: Account): string {
  return account.acct.includes("@") ? `@${account.acct}` : `@${account.acct}@${config.domain}`;
}

/** Display names are plain text; an empty one falls back to the username, as Mastodon shows it. */
export function displayName(account: Account): string {
  return account.display_name.trim() || account.username;
}

function attachment(media: MediaAttachment): string {
  const alt = e(media.description ?? "");
  const url = media.url ?? media.preview_url;
  if (!url) return "";
  if (media.type === "image") return `<a href="${e(url)}"><img src="${e(media.preview_url ?? url)}" alt="${alt}" loading="lazy"></a>`;
  if (media.type === "audio") return `<audio controls preload="none" src="${e(url)}" aria-label="${alt}"></audio>`;
  const poster = media.preview_url ? ` poster="${e(media.preview_url)}"` : "";
  return `<video controls preload="none" src="${e(url)}"${poster} aria-label="${alt}"></video>`;
}

function mediaHtml(status: Status): string {
  if (status.media_attachments.length === 0) return "";
  const grid = `<div class="media">${status.media_attachments.map(attachment).join("")}</div>`;
  // Sensitive media under no content warning of its own still waits for a click.
  return status.sensitive && !status.spoiler_text ? `<details><summary>Sensitive media</summary>${grid}</details>` : grid;
}

function pollHtml(status: Status): string {
  const poll = status.poll;
  if (!poll) return "";
  const options = poll.options
    .map((option) => `<li>${e(option.title)}${option.votes_count === null ? "" : ` (${option.votes_count})`}</li>`)
    .join("");
  return `<ul class="poll">${options}</ul><p class="meta">${counted(poll.votes_count, "vote", "votes")}${poll.expired ? " · closed" : ""}</p>`;
}

/** The author line: avatar, display name and full handle, linking to the author's profile. */
function authorHtml(config: Config, account: Account): string {
  return `<div class="author"><img class="avatar" src="${e(account.avatar)}" alt="" width="48" height="48">
<a href="${e(account.url)}"><strong>${e(displayName(account))}</strong><span>${e(fullAcct(config, account))}</span></a></div>`;
}

export function statusHtml(config: Config, status: Status, focus = false): string {
  const body = `${status.content}${mediaHtml(status)}${pollHtml(status)}`;
  const shown = status.spoiler_text ? `<details><summary>${e(status.spoiler_text)}</summary>${body}</details>` : body;
  const date = dateFormat().format(new Date(status.created_at));
  const link = status.url ?? status.uri;
  const edited = status.edited_at ? " · edited" : "";
  const lang = status.language ? ` lang="${e(status.language)}"` : "";
  return `<article${focus ? ' class="focus"' : ""}${lang}>
${authorHtml(config, status.account)}
${shown}
<p class="meta"><a href="${e(link)}"><time datetime="${status.created_at}">${e(date)}</time></a>${edited} · ${counted(status.replies_count, "reply", "replies")} · ${counted(status.reblogs_count, "boost", "boosts")} · ${counted(status.favourites_count, "favourite", "favourites")}</p>
</article>`;
}
