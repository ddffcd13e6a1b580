// A staff member in a real browser (Debian's headless Chromium through puppeteer-core, launched as
// browser.test.ts does): an Admin signs in, follows the Administration link from /settings, approves a pending
// sign-up at /admin/sign-ups, reads a report with its reported status and resolves it. Each step leaves a
// screenshot in .artifacts/browser-admin/ (gitignored; docs/admin.md, "Pages"). Without a Chromium binary the
// file registers one skipped test saying so; WARREN_CHROMIUM names another binary.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { stopListeningApp } from "../helpers/streaming.ts";
import { filedReport, pendingSignUp } from "../http/admin-pages-helpers.ts";

setDefaultTimeout(60_000);

function findChromium(): string | null {
  const named = process.env.WARREN_CHROMIUM;
  if (named) return named;
  if (existsSync("/usr/lib/chromium/chromium")) return "/usr/lib/chromium/chromium";
  return Bun.which("chromium") ?? Bun.which("chromium-browser");
}

const ARTIFACTS = join(import.meta.dir, "..", "..", ".artifacts", "browser-admin");
const chromium = findChromium();

if (chromium === null) {
  test.skip("admin pages in a browser: skipped, no Chromium found (apt-get install chromium; or set WARREN_CHROMIUM)", () => {});
} else {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  let profileDir: string;
  let shot = 0;
  let reportId: string;

  const PASSWORD = "an admin's browser secret";

  async function screenshot(step: string): Promise<void> {
    shot += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(shot).padStart(2, "0")}-${step}.png`) as `${string}.png`, fullPage: true });
  }
  // The project's TypeScript has no DOM library: what runs in the page is typed by hand.
  const text = (selector: string) => page.$eval(selector, (el) => (el as unknown as { innerText: string }).innerText);
  async function follow(action: Promise<unknown>): Promise<void> {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), action]);
  }

  beforeAll(async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port!;
    probe.stop(true);
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ WARREN_URL: base, WARREN_REGISTRATIONS: "approval" });
    t.app.listen({ port, hostname: "127.0.0.1" });
    await createUser(t, "boss", { role: "Admin", password: PASSWORD });
    await pendingSignUp(t, "newcomer", "I run the bakery on the corner.");
    reportId = (await filedReport(t, "Cheap pills at https://spam.example")).report.id;
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    profileDir = mkdtempSync(join(tmpdir(), "warren-chromium-"));
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      userDataDir: profileDir,
      args: ["--headless=new", "--no-sandbox", "--no-proxy-server", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--lang=en-US"],
    });
    page = await browser.newPage();
    await page.setViewport({ width: 800, height: 900 });
  });

  afterAll(async () => {
    await browser?.close();
    if (t) await stopListeningApp(t);
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  describe("an Admin in a browser", () => {
    test("signs in and follows the Administration link from the settings", async () => {
      await page.goto(`${base}/auth/sign_in`, { waitUntil: "load" });
      await page.type("#username", "boss");
      await page.type("#password", PASSWORD);
      await follow(page.click("button[type=submit]"));
      await page.goto(`${base}/settings/profile`, { waitUntil: "load" });
      await follow(page.click("a[href='/admin']"));
      expect(await text("h1")).toBe("Administration");
      expect(await text("main")).toContain("Pending sign-ups (1 waiting)");
      expect(await text("main")).toContain("Reports (1 unresolved)");
      await screenshot("admin-home");
    });

    test("approves the pending sign-up", async () => {
      await follow(page.click("main ul a[href='/admin/sign-ups']"));
      expect(await text("main")).toContain("I run the bakery on the corner.");
      await screenshot("sign-ups");
      await follow(page.click("button::-p-text(Approve @newcomer)"));
      expect(await text("p.notice")).toBe("The sign-up has been approved.");
      expect(await text("main")).toContain("No sign-up is waiting for approval.");
      await screenshot("sign-up-approved");
      const account = await (await fetch(`${base}/api/v1/accounts/lookup?acct=newcomer`)).json();
      expect(account).toMatchObject({ username: "newcomer" });
    });

    test("reads the report with its status and resolves it", async () => {
      await follow(page.click("nav a[href='/admin/reports']"));
      await follow(page.click(`a[href='/admin/reports/${reportId}']`));
      expect(await text("h1")).toBe(`Report ${reportId}`);
      expect(await text("blockquote.status")).toBe("Cheap pills at https://spam.example");
      await screenshot("report");
      await follow(page.click("button::-p-text(Resolve without action)"));
      expect(await text("p.notice")).toBe("The report is resolved.");
      expect(await text("main")).toContain("State: Resolved");
      await screenshot("report-resolved");
      await follow(page.click("nav a[href='/admin/reports']"));
      expect(await text("main")).toContain("No unresolved report.");
    });
  });
}
