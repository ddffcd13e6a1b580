// A real browser against a listening Warren: Debian's headless Chromium, driven with puppeteer-core, signs up
// (with the keyboard only: Tab between the fields, Space on the checkbox, Enter on the button), opens the mailed
// confirmation link (from the outbox), signs in, edits the profile at /settings/profile, authorizes an app at
// /oauth/authorize with the session (consent only), and reads the profile page at /@username. Each step leaves
// a screenshot in .artifacts/browser/ (gitignored; docs/web.md, "Checks").
// Chromium runs with a temporary profile, --no-sandbox (containers have no user namespaces for its sandbox) and
// no proxy. Without a Chromium binary the file registers one skipped test saying so (CI installs it: apt-get
// install chromium); WARREN_CHROMIUM names another binary.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, OOB } from "../helpers/clients.ts";
import { mailedLink } from "../helpers/mail-links.ts";
import { stopListeningApp } from "../helpers/streaming.ts";

setDefaultTimeout(60_000);

/** The browser binary: WARREN_CHROMIUM, else Debian's chromium (the binary itself, not its wrapper script). */
function findChromium(): string | null {
  const named = process.env.WARREN_CHROMIUM;
  if (named) return named;
  for (const path of ["/usr/lib/chromium/chromium"]) if (existsSync(path)) return path;
  return Bun.which("chromium") ?? Bun.which("chromium-browser");
}

export const ARTIFACTS = join(import.meta.dir, "..", "..", ".artifacts", "browser");

const chromium = findChromium();

if (chromium === null) {
  test.skip("browser e2e: skipped, no Chromium found (CI installs it: apt-get install chromium; or set WARREN_CHROMIUM)", () => {});
} else {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  let profileDir: string;
  let shot = 0;

  const USERNAME = "wren";
  const EMAIL = "wren@example.com";
  const PASSWORD = "a long browser secret";

  /** A free local port: the app's URL must name it before the app starts. */
  function freePort(): number {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port!;
    probe.stop(true);
    return port;
  }

  /** Keeps a full-page screenshot of the current step: .artifacts/browser/NN-<step>.png */
  async function screenshot(step: string): Promise<void> {
    shot += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(shot).padStart(2, "0")}-${step}.png`) as `${string}.png`, fullPage: true });
  }

  // The project's TypeScript has no DOM library: what runs in the page is typed by hand or given as a string.
  type Field = { innerText: string; value: string; checked: boolean };
  const text = (selector: string) => page.$eval(selector, (el) => (el as unknown as Field).innerText);
  const value = (selector: string) => page.$eval(selector, (el) => (el as unknown as Field).value);
  const checked = (selector: string) => page.$eval(selector, (el) => (el as unknown as Field).checked);
  /** The name (or, for a button, the tag) of the focused element. */
  const focused = () => page.evaluate(`document.activeElement.name || document.activeElement.tagName`) as Promise<string>;

  /** Controls in the browser's accessibility tree (what a screen reader is given) that have no name. */
  async function unnamedControls(): Promise<string[]> {
    type AxNode = { role: string; name?: string; children?: AxNode[] };
    const tree = (await page.accessibility.snapshot({ interestingOnly: true })) as AxNode | null;
    const unnamed: string[] = [];
    let controls = 0;
    const visit = (node: AxNode) => {
      if (["textbox", "checkbox", "button", "link", "combobox"].includes(node.role)) {
        controls += 1;
        if (!node.name?.trim()) unnamed.push(node.role);
      }
      node.children?.forEach(visit);
    };
    if (tree) visit(tree);
    if (controls === 0) unnamed.push("no controls at all in the accessibility tree");
    return unnamed;
  }

  /** Clicks what leads to a new page and waits for it. */
  async function follow(action: Promise<unknown>): Promise<void> {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), action]);
  }

  beforeAll(async () => {
    const port = freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ WARREN_URL: base, WARREN_REGISTRATIONS: "open", WARREN_REQUIRE_EMAIL_CONFIRMATION: "true" });
    t.app.listen({ port, hostname: "127.0.0.1" });
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

  describe("a person in a browser", () => {
    test("signs up with the keyboard only", async () => {
      await page.goto(`${base}/auth/sign_up`, { waitUntil: "load" });
      expect(await page.title()).toContain("Sign up");
      expect(await unnamedControls()).toEqual([]);
      await page.focus("#username");
      await page.keyboard.type(USERNAME);
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("email");
      await page.keyboard.type(EMAIL);
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("password");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("password_confirmation");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("agreement");
      await page.keyboard.press("Space");
      expect(await checked("input[name=agreement]")).toBe(true);
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("BUTTON");
      await screenshot("sign-up-form");
      await follow(page.keyboard.press("Enter"));
      expect(await text("h1")).toBe(`Welcome, @${USERNAME}`);
      expect(await text("main")).toContain("We sent you an e-mail");
      await screenshot("signed-up");
    });

    test("opens the mailed confirmation link", async () => {
      const link = await mailedLink(t.dir, EMAIL, "confirmation-", "/auth/confirmation?confirmation_token=");
      await page.goto(`${base}${link}`, { waitUntil: "load" });
      expect(await text("h1")).toBe("E-mail address confirmed");
      expect(await text("main")).toContain(`Thank you, @${USERNAME}: your address is confirmed.`);
      await screenshot("confirmed");
    });

    test("signs in", async () => {
      await follow(page.click("a[href='/auth/sign_in']"));
      expect(await text("h1")).toBe("Sign in");
      await page.type("#username", EMAIL);
      await page.type("#password", PASSWORD);
      await screenshot("sign-in-form");
      await follow(page.click("button[type=submit]"));
      expect(await text("main")).toContain(`You are signed in as @${USERNAME}.`);
      const cookies = await browser.cookies();
      expect(cookies.find((c) => c.name === "warren_session")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
      await screenshot("signed-in");
    });

    test("edits the profile", async () => {
      await follow(page.click("a[href='/settings/profile']"));
      expect(await text("h1")).toBe("Edit profile");
      expect(await unnamedControls()).toEqual([]);
      await page.type("#display_name", "Wren the Browser");
      await page.type("#note", "Typed into a real browser.");
      await page.click("input[name=bot]");
      await screenshot("profile-form");
      await follow(page.click("button[type=submit]"));
      expect(await text("main")).toContain("Your profile has been saved.");
      expect(await value("#display_name")).toBe("Wren the Browser");
      await screenshot("profile-saved");
      const res = await fetch(`${base}/api/v1/accounts/lookup?acct=${USERNAME}`);
      expect(await res.json()).toMatchObject({ display_name: "Wren the Browser", note: "<p>Typed into a real browser.</p>", bot: true });
    });

    test("authorizes an app with the session: consent only, then the code works", async () => {
      const app = await createClientApp(t, "read write", OOB);
      const query = new URLSearchParams({ response_type: "code", client_id: app.client_id, redirect_uri: OOB, scope: "read write" });
      await page.goto(`${base}/oauth/authorize?${query}`, { waitUntil: "load" });
      expect(await text("h1")).toBe("Authorize test client");
      expect(await text("main")).toContain(`Signed in as @${USERNAME}.`);
      expect(await page.$("input[name=password]")).toBeNull();
      expect(await unnamedControls()).toEqual([]);
      await screenshot("authorize");
      await follow(page.click("button[value=approve]"));
      expect(await text("h1")).toBe("Authorization code");
      const code = await text("code.code");
      await screenshot("authorization-code");
      const token = await fetch(`${base}/oauth/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: OOB }),
      });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const me = await fetch(`${base}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(await me.json()).toMatchObject({ username: USERNAME, display_name: "Wren the Browser" });
      const posted = await fetch(`${base}/api/v1/statuses`, {
        method: "POST",
        headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
        body: JSON.stringify({ status: "Posted with the token the browser got", visibility: "public" }),
      });
      expect(posted.status).toBe(200);
    });

    test("reads the profile page", async () => {
      await page.goto(`${base}/@${USERNAME}`, { waitUntil: "load" });
      expect(await text("h1")).toBe("Wren the Browser");
      const main = await text("main");
      expect(main).toContain(`@${USERNAME}@127.0.0.1`);
      expect(main).toContain("Typed into a real browser.");
      expect(main).toContain("Posted with the token the browser got");
      await screenshot("profile-page");
    });

    test("left a screenshot of every step", () => {
      expect(readdirSync(ARTIFACTS).sort()).toEqual([
        "01-sign-up-form.png",
        "02-signed-up.png",
        "03-confirmed.png",
        "04-sign-in-form.png",
        "05-signed-in.png",
        "06-profile-form.png",
        "07-profile-saved.png",
        "08-authorize.png",
        "09-authorization-code.png",
        "10-profile-page.png",
      ]);
    });
  });
}
