// GET /admin/announcements, POST /admin/announcements, POST /admin/announcements/:id/delete (docs/admin.md,
// "Pages"): what every user sees on top of their home, published and removed through the functions behind
// `warren announcements` (manage_announcements). Times are typed as UTC.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { ANNOUNCEMENT_MAX_LENGTH, deleteAnnouncement, listAnnouncements, publishAnnouncement } from "../../domain/announcements/announcements.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, checkbox, IdParams, openAdmin, postAdmin, SECTIONS, sentence, textarea, when, type Staffed } from "./page.ts";

const SECTION = SECTIONS.announcements;
const CreateBody = t.Object({
  ...CSRF_FIELD,
  text: Field(`The announcement (at most ${ANNOUNCEMENT_MAX_LENGTH} characters)`),
  starts_at: Field("When it starts, UTC (YYYY-MM-DDTHH:MM); empty: now"),
  ends_at: Field("When it ends, UTC (YYYY-MM-DDTHH:MM); empty: until removed"),
  all_day: Field('"1" when ticked: an all-day event'),
});

/** A datetime-local value read as UTC; empty is null; anything else is a 422. */
function utcTime(label: string, raw: string | undefined): number | null {
  if (!raw?.trim()) return null;
  const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(raw) ? raw : `${raw}Z`);
  if (!Number.isFinite(ms)) throw new Unprocessable(`Validation failed: ${label} is not a time`);
  return ms;
}

const timeField = (name: string, label: string, value = "") =>
  `<label for="${name}">${e(label)}</label>\n<input type="datetime-local" id="${name}" name="${name}" value="${e(value)}">`;

export const adminAnnouncementPages = (deps: Deps) => {
  const page = (staffed: Staffed, status: number, notice = "", values: typeof CreateBody.static = {}) => {
    const items = listAnnouncements(deps.store).map((a) => {
      const remove = form(`${SECTION.path}/${publicId(a.id)}/delete`, staffed.browser.csrf, "", `Remove announcement ${publicId(a.id)}`);
      return `<li><blockquote>${e(a.text)}</blockquote><p class="muted">Published ${when(a.publishedAt)}; from ${a.startsAt === null ? "publication" : when(a.startsAt)} until ${a.endsAt === null ? "removed" : when(a.endsAt)}.</p>${remove}</li>`;
    });
    const fields = [
      textarea("text", "Announcement", ANNOUNCEMENT_MAX_LENGTH, values.text),
      timeField("starts_at", "Starts at (UTC, optional)", values.starts_at),
      timeField("ends_at", "Ends at (UTC, optional)", values.ends_at),
      checkbox("all_day", "All-day event", values.all_day === "1"),
    ].join("\n");
    const listed = items.length ? `<ul>${items.join("\n")}</ul>` : "<p>No announcement.</p>";
    return adminPage(deps, staffed, status, SECTION, `<h2>Publish an announcement</h2>${form(SECTION.path, staffed.browser.csrf, fields, "Publish")}<h2>Announcements</h2>${listed}`, notice);
  };

  return new Elysia({ name: "admin-announcement-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the announcements and the form to publish one"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Announcements page (HTML; manage_announcements)", tags: ["web"] },
    })
    .post(SECTION.path, async ({ body, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => publishAnnouncement(deps, {
        text: body.text ?? "",
        startsAt: utcTime("Starts at", body.starts_at),
        endsAt: utcTime("Ends at", body.ends_at),
        allDay: body.all_day === "1",
      }));
      return "error" in done ? page(staffed, done.error.status, sentence(done.error), body) : page(staffed, 200, "The announcement is published.");
    }, {
      body: CreateBody,
      transform: onlyStringBody,
      response: { 200: Html("the announcements again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Publish an announcement (form; as `warren announcements add`)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/delete`, async ({ body, params, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => deleteAnnouncement(deps, params.id));
      return "error" in done ? page(staffed, done.error.status, sentence(done.error)) : page(staffed, 200, "The announcement has been removed.");
    }, {
      params: IdParams,
      body: t.Object({ ...CSRF_FIELD }),
      transform: onlyStringBody,
      response: { 200: Html("the announcements again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Remove an announcement (form; as `warren announcements remove`)", tags: ["web"] },
    });
};
