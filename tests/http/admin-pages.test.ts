// The /admin pages (docs/admin.md, "Pages") for an Admin, through HTTP with a browser's cookies and CSRF tokens:
// every page valid HTML; sign-ups approved and rejected; reports read with their statuses, resolved, reopened,
// and settled by an action on the reported account; accounts searched and acted on; instance and e-mail domain
// blocks, rules, the registrations mode and announcements changed, each seen through the API afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { WebBrowser } from "../helpers/web.ts";
import { filedReport, htmlProblems, pendingSignUp, staffBrowser, validPage } from "./admin-pages-helpers.ts";
import { get, newUser } from "./reports-helpers.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof staffBrowser>>;
let browser: WebBrowser;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "approval" });
  admin = await staffBrowser(t, "Admin");
  browser = admin.browser;
});
afterAll(() => t.close());

/** Posts a form of `page` (its CSRF token) to `action`; expects `status` and valid HTML. */
async function act(page: string, action: string, fields: Record<string, string> = {}, status = 200) {
  const res = await browser.submit(page, action, fields);
  expect(res.res.status).toBe(status);
  expect(await htmlProblems(res.html)).toEqual([]);
  return res.html;
}

describe("the administration home", () => {
  test("lists every section for an Admin, and /settings links to it", async () => {
    const home = await validPage(browser, "/admin");
    const sections = ["/admin/sign-ups", "/admin/reports", "/admin/accounts", "/admin/domain-blocks", "/admin/email-domain-blocks", "/admin/rules"];
    for (const path of [...sections, "/admin/registrations", "/admin/feed-access", "/admin/announcements"]) {
      expect(home.html).toContain(`href="${path}"`);
    }
    for (const path of ["/settings/profile", "/settings/preferences"]) expect((await browser.open(path)).html).toContain('<a href="/admin">Administration</a>');
  });
});

describe("pending sign-ups", () => {
  test("are listed with their reason, escaped, and approved or rejected", async () => {
    await pendingSignUp(t, "hopeful");
    await pendingSignUp(t, "doubtful");
    const page = await validPage(browser, "/admin/sign-ups");
    expect(page.html).toContain("@hopeful");
    expect(page.html).toContain("I&#39;d like to join &lt;b&gt;please&lt;/b&gt;");
    expect(page.html).not.toContain("<b>please</b>");
    const hopeful = /action="\/admin\/sign-ups\/(\d+)\/approve"[^]*?Approve @hopeful/.exec(page.html);
    const ids = [...page.html.matchAll(/action="\/admin\/sign-ups\/(\d+)\/(approve|reject)"/g)];
    expect(hopeful).not.toBeNull();
    const idOf = (name: string) => ids.find((m) => page.html.indexOf(m[0]) > page.html.indexOf(`<h2>@${name}</h2>`))![1]!;
    const [hopefulId, doubtfulId] = [idOf("hopeful"), idOf("doubtful")];

    expect(await act("/admin/sign-ups", `/admin/sign-ups/${hopefulId}/approve`)).toContain("The sign-up has been approved.");
    expect(await act("/admin/sign-ups", `/admin/sign-ups/${doubtfulId}/reject`)).toContain("The sign-up has been rejected");
    const after = await browser.open("/admin/sign-ups");
    expect(after.html).not.toContain("@hopeful");
    expect(after.html).not.toContain("@doubtful");
    // Approved: the person can sign in and open the settings; rejected: the account is gone.
    await new WebBrowser(t).signIn("hopeful", "a long enough secret");
    expect((await get(t, "/api/v1/accounts/lookup?acct=doubtful")).status).toBe(404);
    // Deciding again is the domain's refusal (no longer pending), shown on the page.
    // (The list is empty now, so the token comes from another admin page: it is bound to the session.)
    const again = await act("/admin/rules", `/admin/sign-ups/${hopefulId}/approve`, {}, 403);
    expect(again).toContain("This action is not allowed");
  });
});

describe("reports", () => {
  test("are read with the reported statuses, resolved and reopened", async () => {
    const { report, target } = await filedReport(t);
    const list = await validPage(browser, "/admin/reports");
    expect(list.html).toContain(`href="/admin/reports/${report.id}"`);
    const page = await validPage(browser, `/admin/reports/${report.id}`);
    expect(page.html).toContain("buy &lt;cheap&gt; things at https://spam.example");
    expect(page.html).toContain("this is spam &amp; more");
    expect(page.html).toContain(`href="/admin/accounts/${target.id}"`);
    expect(page.html).toContain("Unresolved");

    expect(await act(`/admin/reports/${report.id}`, `/admin/reports/${report.id}/resolve`)).toContain("The report is resolved.");
    expect((await browser.open("/admin/reports?resolved=1")).html).toContain(`href="/admin/reports/${report.id}"`);
    expect((await browser.open("/admin/reports")).html).not.toContain(`href="/admin/reports/${report.id}"`);
    expect(await act(`/admin/reports/${report.id}`, `/admin/reports/${report.id}/reopen`)).toContain("The report is open again.");
    expect((await browser.open("/admin/reports")).html).toContain(`href="/admin/reports/${report.id}"`);
    await validPage(browser, "/admin/reports/999999", 404);
  });

  test("take action on the reported account (warn, sensitive, silence, suspend), resolving the report", async () => {
    for (const type of ["none", "sensitive", "silence", "suspend"]) {
      const { report, target } = await filedReport(t);
      const html = await act(`/admin/reports/${report.id}`, `/admin/reports/${report.id}/action`, { type, text: "Please stop." });
      expect(html).toContain("The report is resolved.");
      expect(html).toContain("Resolved");
      const account = (await get(t, `/api/v1/accounts/${target.id}`)).body;
      if (type === "suspend") expect(account.suspended).toBe(true);
      if (type === "silence") expect(account.limited).toBe(true);
    }
    const { report } = await filedReport(t);
    expect(await act(`/admin/reports/${report.id}`, `/admin/reports/${report.id}/action`, { type: "explode" }, 422)).toContain("Type is not included in the list");
  });
});

describe("accounts", () => {
  test("are searched and acted on, and the actions lifted", async () => {
    const someone = await newUser(t, "findme");
    const found = await validPage(browser, `/admin/accounts?username=${someone.username}`);
    expect(found.html).toContain(`href="/admin/accounts/${someone.id}"`);
    expect((await validPage(browser, "/admin/accounts?status=silenced")).html).not.toContain(`@${someone.username}<`);
    expect((await browser.open("/admin/accounts?status=nonsense")).res.status).toBe(400);

    const path = `/admin/accounts/${someone.id}`;
    await validPage(browser, path);
    expect(await act(path, `${path}/action`, { type: "silence" })).toContain("The account is now limited.");
    expect((await validPage(browser, "/admin/accounts?status=silenced")).html).toContain(`href="${path}"`);
    expect((await get(t, `/api/v1/accounts/${someone.id}`)).body.limited).toBe(true);
    expect(await act(path, `${path}/lift`, { what: "silence" })).toContain("The limit is lifted.");
    expect((await get(t, `/api/v1/accounts/${someone.id}`)).body.limited).toBeUndefined();
    expect(await act(path, `${path}/action`, { type: "disable" })).toContain("login is disabled");
    expect(await act(path, `${path}/lift`, { what: "disable" })).toContain("The login is enabled again.");
    expect(await act(path, `${path}/lift`, { what: "__proto__" }, 400)).toContain("Unknown thing to lift");
    // An Admin does not act on an Owner (the domain's rule: the role must be above the target's).
    const owner = await staffBrowser(t, "Owner");
    const ownerPath = `/admin/accounts/${owner.id}`;
    expect(await act(ownerPath, `${ownerPath}/action`, { type: "suspend" }, 403)).toContain("This action is not allowed");
    await validPage(browser, "/admin/accounts/123456789", 404);
  });
});

describe("domain blocks, e-mail domain blocks, rules, registrations and announcements", () => {
  test("instance domain blocks are added, refused when already covered, and lifted", async () => {
    expect(await act("/admin/domain-blocks", "/admin/domain-blocks", { domain: "Evil.Example", severity: "suspend", reject_media: "1", private_comment: "<script>" })).toContain("evil.example is blocked.");
    const page = await validPage(browser, "/admin/domain-blocks");
    expect(page.html).toContain("&lt;script&gt;");
    expect(await act("/admin/domain-blocks", "/admin/domain-blocks", { domain: "sub.evil.example", severity: "silence" }, 422)).toContain("already imposed stricter limits");
    const id = /action="\/admin\/domain-blocks\/(\d+)\/delete"/.exec(page.html)![1];
    expect(await act("/admin/domain-blocks", `/admin/domain-blocks/${id}/delete`)).toContain("The block of evil.example is lifted.");
    expect(await act("/admin/domain-blocks", "/admin/domain-blocks", { domain: "" }, 422)).toContain("Domain can&#39;t be blank");
  });

  test("e-mail domain blocks refuse sign-ups from the domain until lifted", async () => {
    expect(await act("/admin/email-domain-blocks", "/admin/email-domain-blocks", { domain: "spam.test" })).toContain("spam.test is blocked for sign-ups.");
    const page = await validPage(browser, "/admin/email-domain-blocks");
    const signUp = { username: "spammer", email: "x@spam.test", password: "a long enough secret", password_confirmation: "a long enough secret", agreement: "1", reason: "hi" };
    const refused = await new WebBrowser(t).submit("/auth/sign_up", "/auth/sign_up", signUp);
    expect(refused.res.status).toBe(422);
    expect(refused.html).toContain("uses a disallowed e-mail provider");
    const id = /action="\/admin\/email-domain-blocks\/(\d+)\/delete"/.exec(page.html)![1];
    expect(await act("/admin/email-domain-blocks", `/admin/email-domain-blocks/${id}/delete`)).toContain("unblocked");
    expect((await browser.open("/admin/email-domain-blocks")).html).not.toContain("<h2>spam.test</h2>");
    expect((await new WebBrowser(t).submit("/auth/sign_up", "/auth/sign_up", signUp)).html).not.toContain("disallowed e-mail provider");
  });

  test("rules are added and removed, as /api/v1/instance/rules shows", async () => {
    expect(await act("/admin/rules", "/admin/rules", { text: "Be kind <always>", hint: "Really." })).toContain("The rule has been added.");
    const rules = (await get(t, "/api/v1/instance/rules")).body as { id: string; text: string }[];
    const rule = rules.find((r) => r.text === "Be kind <always>")!;
    expect(rule).toBeDefined();
    expect((await validPage(browser, "/admin/rules")).html).toContain("Be kind &lt;always&gt;");
    expect(await act("/admin/rules", "/admin/rules", { text: "  " }, 422)).toContain("Text can&#39;t be blank");
    expect(await act("/admin/rules", `/admin/rules/${rule.id}/delete`)).toContain("The rule has been removed.");
    expect((await get(t, "/api/v1/instance/rules")).body).toEqual([]);
  });

  test("the registrations mode is saved, as /api/v2/instance shows", async () => {
    await validPage(browser, "/admin/registrations");
    expect(await act("/admin/registrations", "/admin/registrations", { mode: "closed" })).toContain("Registrations are now closed.");
    expect((await get(t, "/api/v2/instance")).body.registrations.enabled).toBe(false);
    expect(await act("/admin/registrations", "/admin/registrations", { mode: "open" })).toContain("Registrations are now open.");
    expect((await get(t, "/api/v2/instance")).body.registrations).toMatchObject({ enabled: true, approval_required: false });
    expect(await act("/admin/registrations", "/admin/registrations", { mode: "sometimes" }, 422)).toContain("Choose open, approval or closed.");
    expect(await act("/admin/registrations", "/admin/registrations", { mode: "approval" })).toContain("Registrations are now approval.");
  });

  test("feed access is saved, as /api/v2/instance shows; local hashtag feeds cannot be staff only", async () => {
    await validPage(browser, "/admin/feed-access");
    const fields = { local_live_feed_access: "public", remote_live_feed_access: "authenticated", local_topic_feed_access: "public", remote_topic_feed_access: "disabled" };
    expect(await act("/admin/feed-access", "/admin/feed-access", fields)).toContain("Feed access saved.");
    const access = (await get(t, "/api/v2/instance")).body.configuration.timelines_access;
    expect(access).toMatchObject({ live_feeds: { local: "public", remote: "authenticated" }, hashtag_feeds: { local: "public", remote: "disabled" } });
    expect(await act("/admin/feed-access", "/admin/feed-access", { ...fields, local_live_feed_access: "nobody" }, 422)).toContain("Choose who may read each feed.");
    expect(await act("/admin/feed-access", "/admin/feed-access", { ...fields, local_topic_feed_access: "disabled" }, 422)).toContain("cannot be staff only");
    const open = { local_live_feed_access: "public", remote_live_feed_access: "public", local_topic_feed_access: "public", remote_topic_feed_access: "public" };
    expect(await act("/admin/feed-access", "/admin/feed-access", open)).toContain("Feed access saved.");
  });

  test("announcements are published to users and removed", async () => {
    const reader = await newUser(t, "reader");
    expect(await act("/admin/announcements", "/admin/announcements", { text: "Maintenance <tonight>", ends_at: "2999-01-01T00:00" })).toContain("The announcement is published.");
    const seen = (await get(t, "/api/v1/announcements", reader.token)).body as { id: string; ends_at: string }[];
    expect(seen).toHaveLength(1);
    expect(seen[0]!.ends_at).toBe("2999-01-01T00:00:00.000Z");
    expect((await validPage(browser, "/admin/announcements")).html).toContain("Maintenance &lt;tonight&gt;");
    expect(await act("/admin/announcements", "/admin/announcements", { text: "x", starts_at: "soon" }, 422)).toContain("Starts at is not a time");
    expect(await act("/admin/announcements", `/admin/announcements/${seen[0]!.id}/delete`)).toContain("The announcement has been removed.");
    expect((await get(t, "/api/v1/announcements", reader.token)).body).toEqual([]);
  });
});
