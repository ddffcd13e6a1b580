// GET /about and GET /privacy-policy: the human-readable pages that /api/v2/instance links to
// (`configuration.urls.about`, `configuration.urls.privacy_policy`).
import { Elysia, t } from "elysia";
import type { Config } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { escapeHtml, textToHtml } from "../../lib/html.ts";
import { SOFTWARE_VERSION } from "../../domain/limits.ts";
import { THUMBNAIL_DESCRIPTION } from "../../domain/instance/artwork.ts";
import { SOURCE_URL, instanceFacts, type InstanceFacts } from "../../domain/instance/info.ts";
import { privacyPolicy } from "../../domain/instance/privacy-policy.ts";
import { iconUrl, thumbnailUrl } from "../../entities/instance.ts";
import { cachePlugin } from "../plugins/cache.ts";

const tags = ["instance"];
const PAGE_CACHE = { seconds: 300, always: true };
const Html = t.String({ description: "text/html" });

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;background:#f6f3ee}
main{max-width:42rem;margin:0 auto;padding:1.5rem}img.banner{width:100%;height:auto;border-radius:.5rem}
h1{margin:.75rem 0 0}.domain{margin:0;color:#666}h2{margin-top:2rem;font-size:1.2rem}
ol li{margin:.5rem 0}.hint{color:#555}footer{margin-top:3rem;font-size:.9rem;color:#666}a{color:#2f6a2a}`;

function page(config: Config, title: string, body: string): Response {
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta property="og:title" content="${escapeHtml(title)}">
<meta property="og:image" content="${thumbnailUrl(config)}">
<link rel="icon" type="image/png" href="${iconUrl(config, 48)}">
<style>${STYLE}</style>
</head>
<body><main>
${body}
<footer><a href="${config.url}/about">About</a> · <a href="${config.url}/privacy-policy">Privacy policy</a> ·
Powered by <a href="${SOURCE_URL}">Warren</a> ${SOFTWARE_VERSION}</footer>
</main></body>
</html>
`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

const SIGN_UPS = {
  open: "Anyone can sign up.",
  approval: "Anyone can ask to sign up; the staff review each request.",
  closed: "Sign-ups are closed.",
} as const;

function aboutBody(config: Config, facts: InstanceFacts): string {
  const e = escapeHtml;
  const rules = facts.rules.length
    ? `<ol>${facts.rules
        .map((rule) => `<li><strong>${e(rule.text)}</strong>${rule.hint ? `<br><span class="hint">${e(rule.hint)}</span>` : ""}</li>`)
        .join("\n")}</ol>`
    : "<p>This server has not published any rules.</p>";
  const contact = [
    config.contactEmail ? `E-mail: <a href="mailto:${e(config.contactEmail)}">${e(config.contactEmail)}</a>` : "",
    facts.contact ? `Administered by <a href="${e(facts.contact.url)}">@${e(facts.contact.username)}</a>` : "",
  ].filter(Boolean);
  return `<img class="banner" src="${thumbnailUrl(config)}" alt="${e(THUMBNAIL_DESCRIPTION)}" width="1200" height="630">
<h1>${e(config.instanceTitle)}</h1>
<p class="domain">${e(config.domain)}</p>
${facts.description.text ? textToHtml(facts.description.text) : ""}
<h2>Sign-ups</h2>
<p>${SIGN_UPS[facts.registrations]}</p>
<h2>Rules</h2>
${rules}
<h2>Contact</h2>
<p>${contact.length ? contact.join("<br>") : "No contact has been published."}</p>
<p>${facts.usage.total} ${facts.usage.total === 1 ? "person has" : "people have"} an account here.</p>`;
}

export const instancePageRoutes = (deps: Deps) =>
  new Elysia({ name: "instance-page-routes" })
    .use(cachePlugin)
    .get("/about", () => page(deps.config, `About ${deps.config.instanceTitle}`, aboutBody(deps.config, instanceFacts(deps))), {
      publicCache: PAGE_CACHE,
      response: { 200: Html },
      detail: { summary: "About this server (HTML): description, sign-ups, rules, contact", tags },
    })
    .get(
      "/privacy-policy",
      () => page(deps.config, `Privacy policy of ${deps.config.instanceTitle}`, `<h1>Privacy policy</h1>\n${privacyPolicy(deps.config).html}`),
      {
        publicCache: PAGE_CACHE,
        response: { 200: Html },
        detail: { summary: "Privacy policy (HTML)", tags },
      },
    );
