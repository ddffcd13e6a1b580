// Who may use the /admin pages (docs/admin.md, "Pages"): a Moderator sees and does what the role permits
// (sign-ups, reports, accounts) and gets a 403 page on the rest, its forms refused too; a plain user gets 403
// everywhere and no link from /settings; an anonymous visitor is sent to sign in; every form needs the session's
// CSRF token. The routes are described in /openapi/json.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { WebBrowser } from "../helpers/web.ts";
import { filedReport, staffBrowser, validPage } from "./admin-pages-helpers.ts";
import { get, newUser } from "./reports-helpers.ts";
import { listDomainBlocks } from "../../src/domain/admin/domain-blocks.ts";
import { emailDomainBlocksPage } from "../../src/domain/admin/domain-blocks-email.ts";
import { listAnnouncements } from "../../src/domain/announcements/announcements.ts";
import { registrationMode } from "../../src/domain/instance/registrations.ts";
import { feedAccess } from "../../src/domain/instance/feed-access.ts";
import { instanceRules } from "../../src/domain/instance/rules.ts";
import { findReport } from "../../src/domain/reports/admin.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "approval" });
});
afterAll(() => t.close());

const MODERATOR_PAGES = ["/admin", "/admin/sign-ups", "/admin/reports", "/admin/accounts"];
const ADMIN_ONLY_PAGES = ["/admin/domain-blocks", "/admin/email-domain-blocks", "/admin/rules", "/admin/registrations", "/admin/feed-access", "/admin/announcements"];

/** Every form of the pages, with fields that would change something if accepted; ids are the records' own or made up. */
function forms(ids: { report: string; account: string }): [action: string, fields: Record<string, string>][] {
  return [
    [`/admin/sign-ups/${ids.account}/approve`, {}],
    [`/admin/sign-ups/${ids.account}/reject`, {}],
    [`/admin/reports/${ids.report}/resolve`, {}],
    [`/admin/reports/${ids.report}/reopen`, {}],
    [`/admin/reports/${ids.report}/action`, { type: "suspend" }],
    [`/admin/accounts/${ids.account}/action`, { type: "suspend" }],
    [`/admin/accounts/${ids.account}/lift`, { what: "suspend" }],
    ["/admin/domain-blocks", { domain: "forged.example" }],
    ["/admin/domain-blocks/1/delete", {}],
    ["/admin/email-domain-blocks", { domain: "forged.example" }],
    ["/admin/email-domain-blocks/1/delete", {}],
    ["/admin/rules", { text: "Forged rule" }],
    ["/admin/rules/1/delete", {}],
    ["/admin/registrations", { mode: "open" }],
    ["/admin/feed-access", { local_live_feed_access: "disabled", remote_live_feed_access: "disabled", local_topic_feed_access: "authenticated", remote_topic_feed_access: "disabled" }],
    ["/admin/announcements", { text: "Forged announcement" }],
    ["/admin/announcements/1/delete", {}],
  ];
}

/** Nothing the forged or refused forms tried has happened (read through the domain, as the operator would). */
async function nothingChanged(ids: { report: string; account: string }) {
  const account = (await get(t, `/api/v1/accounts/${ids.account}`)).body;
  expect(account.suspended).toBeUndefined();
  expect(listDomainBlocks(t.deps.store)).toEqual([]);
  expect(emailDomainBlocksPage(t.deps.store, { limit: 10 })).toEqual([]);
  expect(instanceRules(t.deps)).toEqual([]);
  expect(listAnnouncements(t.deps.store)).toEqual([]);
  expect(registrationMode(t.deps)).toBe("approval");
  expect(feedAccess(t.deps, "local_live_feed_access")).toBe("public");
  if (ids.report !== "1") expect(findReport(t.deps.store, ids.report).actionTakenAt).toBeNull();
}

describe("a Moderator", () => {
  test("sees the sections of the role only, in the nav and on /admin", async () => {
    const { browser } = await staffBrowser(t, "Moderator");
    for (const path of MODERATOR_PAGES) {
      const page = await validPage(browser, path);
      for (const hidden of ADMIN_ONLY_PAGES) expect(page.html).not.toContain(`href="${hidden}"`);
    }
    for (const path of ADMIN_ONLY_PAGES) {
      const page = await validPage(browser, path, 403);
      expect(page.html).toContain("This action is not allowed");
      expect(page.html).not.toContain("authenticity_token");
    }
    expect((await browser.open("/settings/profile")).html).toContain('<a href="/admin">Administration</a>');
  });

  test("resolves a report and acts on the reported account, but not on an Admin", async () => {
    const { browser } = await staffBrowser(t, "Moderator");
    const { report, target } = await filedReport(t);
    const page = `/admin/reports/${report.id}`;
    expect((await browser.submit(page, `${page}/resolve`)).html).toContain("The report is resolved.");
    expect((await browser.submit(page, `${page}/reopen`)).html).toContain("The report is open again.");
    expect((await browser.submit(page, `${page}/action`, { type: "silence" })).html).toContain("The account is now limited.");
    expect((await get(t, `/api/v1/accounts/${target.id}`)).body.limited).toBe(true);
    const admin = await createUser(t, "anadmin", { role: "Admin" });
    const refused = await browser.submit(`/admin/accounts/${admin.id}`, `/admin/accounts/${admin.id}/action`, { type: "suspend" });
    expect(refused.res.status).toBe(403);
    expect(refused.html).toContain("This action is not allowed");
    expect((await get(t, `/api/v1/accounts/${admin.id}`)).body.suspended).toBeUndefined();
  });

  test("has the forms of the other sections refused, with a valid CSRF token", async () => {
    const { browser } = await staffBrowser(t, "Moderator");
    const target = await newUser(t, "modtarget");
    const csrf = (await browser.open(`/admin/accounts/${target.id}`)).csrf;
    expect(csrf).not.toBe("");
    for (const [action, fields] of forms({ report: "1", account: target.id }).filter(([a]) => ADMIN_ONLY_PAGES.some((p) => a.startsWith(p)))) {
      const res = await browser.post(action, csrf, fields);
      expect([action, res.res.status]).toEqual([action, 403]);
      expect(res.html).toContain("This action is not allowed");
    }
    await nothingChanged({ report: "1", account: target.id });
  });
});

describe("a plain user and an anonymous visitor", () => {
  test("a plain user gets 403 on every page and form, and no link from /settings", async () => {
    const user = await createUser(t, "plainjane");
    const browser = await new WebBrowser(t).signIn(user.username, user.password);
    expect((await browser.open("/settings/profile")).html).not.toContain('href="/admin"');
    expect((await browser.open("/settings/preferences")).html).not.toContain('href="/admin"');
    for (const path of [...MODERATOR_PAGES, ...ADMIN_ONLY_PAGES, "/admin/reports/1", "/admin/accounts/1"]) {
      const page = await validPage(browser, path, 403);
      expect(page.html).toContain("This action is not allowed");
    }
    const csrf = (await browser.open("/settings/preferences")).csrf;
    const { report, target } = await filedReport(t);
    for (const [action, fields] of forms({ report: report.id, account: target.id })) {
      expect([action, (await browser.post(action, csrf, fields)).res.status]).toEqual([action, 403]);
    }
    await nothingChanged({ report: report.id, account: target.id });
  });

  test("an anonymous visitor is sent to sign in, and its forms are refused", async () => {
    const browser = new WebBrowser(t);
    for (const path of [...MODERATOR_PAGES, ...ADMIN_ONLY_PAGES, "/admin/reports/1", "/admin/accounts/1"]) {
      const page = await browser.open(path);
      expect([path, page.res.status, page.res.headers.get("location")]).toEqual([path, 303, "/auth/sign_in"]);
    }
    const csrf = (await browser.open("/auth/sign_in")).csrf;
    for (const [action, fields] of forms({ report: "1", account: "1" })) {
      const res = await browser.post(action, csrf, fields);
      expect([action, res.res.status]).toEqual([action, 303]);
    }
  });
});

describe("every form", () => {
  test("needs the session's CSRF token: none, a forged one or another session's is refused", async () => {
    const admin = await staffBrowser(t, "Admin");
    const other = await staffBrowser(t, "Admin");
    const othersToken = (await other.browser.open("/admin/rules")).csrf;
    const { report, target } = await filedReport(t);
    for (const [action, fields] of forms({ report: report.id, account: target.id })) {
      for (const token of ["", "forged", othersToken]) {
        const res = await admin.browser.post(action, token, fields);
        expect([action, token, res.res.status]).toEqual([action, token, 403]);
        expect(res.html).toContain("Invalid form");
      }
    }
    await nothingChanged({ report: report.id, account: target.id });
  });
});

describe("the OpenAPI document", () => {
  test("describes every admin page and form, with their answers", async () => {
    const doc = (await (await t.request("/openapi/json")).json()) as { paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown>; requestBody?: unknown }>> };
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith("/admin"));
    expect(paths.length).toBeGreaterThanOrEqual(19);
    for (const path of paths) {
      for (const [method, op] of Object.entries(doc.paths[path]!)) {
        expect([path, method, op.tags]).toEqual([path, method, ["web"]]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "303", "403"]));
        if (method === "post") expect(op.requestBody).toBeDefined();
      }
    }
    expect(doc.paths["/admin/reports/{id}/action"]?.post).toBeDefined();
  });
});
