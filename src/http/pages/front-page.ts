// The front page (/): what this server is, its rules, how to join or sign in (here or with any Mastodon
// app, by typing the server's address), and its newest public posts when the operator shows them.
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { FrontPage } from "../../domain/public-pages/front.ts";
import { presentStatuses } from "../../entities/status.ts";
import { thumbnailUrl } from "../../entities/instance.ts";
import { htmlPage, type Head } from "./layout.ts";
import { statusHtml } from "./status-html.ts";

const e = escapeHtml;

function joinHtml(config: Config, page: FrontPage): string {
  const signIn = `<a href="${config.url}/auth/sign_in">Sign in</a>`;
  switch (page.registrations) {
    case "open":
      return `<p><a class="button" href="${config.url}/auth/sign_up">Create an account</a> or ${signIn}</p>`;
    case "approval":
      return `<p><a class="button" href="${config.url}/auth/sign_up">Apply for an account</a> (the staff approve each one) or ${signIn}</p>`;
    default:
      return `<p>Registrations are closed on this server. ${signIn}</p>`;
  }
}

function rulesHtml(page: FrontPage): string {
  if (page.rules.length === 0) return "";
  const items = page.rules.map((rule) => `<li>${e(rule.text)}${rule.hint ? `<br><small>${e(rule.hint)}</small>` : ""}</li>`).join("\n");
  return `<h2>Rules</h2>\n<ol>\n${items}\n</ol>`;
}

export function frontPageHtml(config: Config, page: FrontPage): string {
  const description = page.description || `A Mastodon-compatible social network server at ${config.domain}.`;
  const head: Head = {
    title: config.instanceTitle,
    description,
    url: `${config.url}/`,
    image: thumbnailUrl(config),
    ogType: "website",
    alternates: [],
  };
  const recent = page.recent
    ? `<h2>Recent posts</h2>\n${presentStatuses(config, page.recent).map((status) => statusHtml(config, status)).join("\n") || "<p>Nothing posted yet.</p>"}`
    : "";
  return htmlPage(config, head, `<header class="front">
<img class="thumbnail" src="${e(thumbnailUrl(config))}" alt="" width="600" height="315">
<h1>${e(config.instanceTitle)}</h1>
<p>${e(description)}</p>
${joinHtml(config, page)}
<p class="hint">Use any Mastodon app (Elk, Phanpy, Tusky, Ivory, the official app…): when it asks for a server, type <strong>${e(config.domain)}</strong>.</p>
</header>
${rulesHtml(page)}
${recent}`);
}
