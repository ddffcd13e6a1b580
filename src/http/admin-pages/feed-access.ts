// GET/POST /admin/feed-access (docs/admin.md, "Pages"): Mastodon 4.5's four feed settings (who may read the
// live and hashtag feeds' local and remote parts), read and saved through the functions behind
// `warren settings feed-access` (manage_settings).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { FEED_ACCESS_VALUES, feedAccess, setFeedAccess } from "../../domain/instance/feed-access.ts";
import { FEED_SETTINGS, type FeedSetting } from "../../model/instance.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, openAdmin, postAdmin, SECTIONS, type Staffed } from "./page.ts";

const SECTION = SECTIONS.feedAccess;
const LABELS: Record<FeedSetting, string> = {
  local_live_feed_access: "Live feed, posts from this server",
  remote_live_feed_access: "Live feed, posts from other servers",
  local_topic_feed_access: "Hashtag feeds, posts from this server",
  remote_topic_feed_access: "Hashtag feeds, posts from other servers",
};
const WORDS = { public: "Everyone", authenticated: "Signed-in users", disabled: "Staff only" } as const;

export const adminFeedAccessPages = (deps: Deps) => {
  const page = (staffed: Staffed, status: number, notice = "") => {
    const fieldsets = FEED_SETTINGS.map((name) => {
      const current = feedAccess(deps, name);
      // Mastodon's form offers local hashtag feeds public or authenticated only.
      const values = name === "local_topic_feed_access" ? FEED_ACCESS_VALUES.filter((v) => v !== "disabled") : FEED_ACCESS_VALUES;
      const radios = values
        .map((v) => `<label class="check"><input type="radio" name="${name}" value="${v}"${v === current ? " checked" : ""}> ${e(WORDS[v])}</label>`)
        .join("\n");
      return `<fieldset><legend>${e(LABELS[name])}</legend>\n${radios}</fieldset>`;
    });
    return adminPage(deps, staffed, status, SECTION, form(SECTION.path, staffed.browser.csrf, fieldsets.join("\n"), "Save"), notice);
  };

  return new Elysia({ name: "admin-feed-access-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the feed access form"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Feed access page (HTML; manage_settings)", tags: ["web"] },
    })
    .post(SECTION.path, async ({ body, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const chosen = FEED_SETTINGS.map((name) => [name, FEED_ACCESS_VALUES.find((v) => v === (body as Record<string, string>)[name])] as const);
      if (chosen.some(([, value]) => !value)) return page(staffed, 422, "Choose who may read each feed.");
      try {
        for (const [name, value] of chosen) await setFeedAccess(deps, name, value!);
      } catch {
        return page(staffed, 422, "Hashtag feeds of this server's posts cannot be staff only.");
      }
      return page(staffed, 200, "Feed access saved.");
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        ...Object.fromEntries(FEED_SETTINGS.map((name) => [name, Field("public, authenticated or disabled")])),
      }),
      transform: onlyStringBody,
      response: { 200: Html("the form again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Set who may read the live and hashtag feeds (form; as `warren settings feed-access`)", tags: ["web"] },
    });
};
