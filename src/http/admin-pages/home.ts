// GET /admin (docs/admin.md, "Pages"): the sections the staff member's role may open, with what waits in them.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { pendingSignUps } from "../../domain/admin/accounts-read.ts";
import { reportsPage } from "../../domain/reports/admin.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { boundedPageQuery } from "../plugins/paging.ts";
import { e } from "../auth/layout.ts";
import { Html } from "../auth/schemas.ts";
import { ADMIN_PAGE_REFUSALS, adminPage, HOME, openAdmin, SECTIONS, sectionsFor, type AdminSection } from "./page.ts";

const WAITING_SHOWN = 100;

export const adminHomePage = (deps: Deps) => {
  /** What waits in a section, counted up to a bound: "" when nothing to say. */
  const waiting = (section: AdminSection): string => {
    const count = (n: number, what: string) => (n === 0 ? "" : ` (${n >= WAITING_SHOWN ? `${WAITING_SHOWN}+` : n} ${what})`);
    if (section === SECTIONS.signUps) return count(pendingSignUps(deps.store).length, "waiting");
    if (section === SECTIONS.reports) return count(reportsPage(deps.store, { resolved: false }, boundedPageQuery({}, WAITING_SHOWN)).length, "unresolved");
    return "";
  };

  return new Elysia({ name: "admin-home-page" })
    .use(cachePlugin)
    .get(HOME.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, HOME);
      if (staffed instanceof Response) return staffed;
      const items = sectionsFor(staffed.staff.role).map((s) => `<li><a href="${s.path}">${e(s.title)}</a>${e(waiting(s))}</li>`);
      return adminPage(deps, staffed, 200, HOME, `<ul>${items.join("\n")}</ul>`);
    }, {
      response: { 200: Html("the sections the role may open"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Administration home page (HTML; staff roles)", tags: ["web"] },
    });
};
