// The public page of one post (/@username/:id): the thread above it, the post, the replies below, each as
// anyone may see them. Its head describes the post for link previews (first image, else the author's avatar).
import type { Config } from "../../config.ts";
import { htmlToText } from "../../domain/filters/text.ts";
import type { PublicThread } from "../../domain/public-pages/thread.ts";
import { presentStatuses, type Status } from "../../entities/status.ts";
import { escapeHtml } from "../../lib/html.ts";
import { htmlPage, type Head } from "./layout.ts";
import { displayName, fullAcct, statusHtml } from "./status-html.ts";

function threadHead(config: Config, status: Status): Head {
  const author = status.account;
  const image = status.media_attachments.find((m) => m.type === "image" && !status.sensitive)?.preview_url ?? author.avatar;
  // Behind a content warning only the warning is told.
  const text = status.spoiler_text ? `Content warning: ${status.spoiler_text}` : htmlToText(status.content);
  const media = status.media_attachments.length ? `Attached: ${status.media_attachments.length} media` : "";
  return {
    title: `${displayName(author)} (${fullAcct(config, author)})`,
    description: [text, media].filter(Boolean).join(" · ") || `A post by ${fullAcct(config, author)}`,
    url: status.url ?? status.uri,
    image,
    ogType: "article",
    alternates: [{ type: "application/activity+json", href: status.uri }],
  };
}

export function threadPage(config: Config, thread: PublicThread): string {
  const [status] = presentStatuses(config, thread.status) as [Status];
  const above = presentStatuses(config, thread.ancestors).map((s) => statusHtml(config, s));
  const below = presentStatuses(config, thread.descendants).map((s) => statusHtml(config, s));
  // The page's one h1 names the post's author; the posts themselves are articles under it.
  const body = [
    `<h1 class="thread">Post by ${escapeHtml(displayName(status.account))}</h1>`,
    ...above,
    statusHtml(config, status, true),
    below.length ? `<h2>Replies</h2>\n${below.join("\n")}` : "",
  ];
  return htmlPage(config, threadHead(config, status), body.filter(Boolean).join("\n"));
}
