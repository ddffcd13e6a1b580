// Every server-rendered page, fetched through HTTP in its interesting states, is valid HTML and passes
// accessibility checks (docs/web.md, "Checks"):
// - html-validate with its recommended, document and a11y presets: valid content models, labels for inputs,
//   alt text, heading order, unique ids, no redundant roles, valid autocomplete tokens…
// - checks of our own: every form control has a label, exactly one h1, `<html lang>`, and the colour pairs of
//   each page's stylesheet (text on its backgrounds) have a contrast ratio of at least 4.5:1 (WCAG AA).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Parser } from "htmlparser2";
import { HtmlValidate, type ConfigData } from "html-validate";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, OOB, signedInUser, type ClientApp } from "../helpers/clients.ts";
import { uploadImage } from "../helpers/media.ts";
import { mailedLink } from "../helpers/mail-links.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { CookieJar, hiddenFields } from "../helpers/oauth.ts";
import { addRule } from "../../src/domain/instance/rules.ts";
import { setInstanceDescription } from "../../src/domain/instance/info.ts";
import { setRegistrationMode } from "../../src/domain/instance/registrations.ts";
import { SETTINGS_PAGES } from "../../src/http/auth/settings-page.ts";

setDefaultTimeout(60_000);

/** html-validate's configuration: its presets, with every rule they hold on. Rules turned off say why. */
export const VALIDATOR_CONFIG: ConfigData = {
  extends: ["html-validate:recommended", "html-validate:document", "html-validate:a11y"],
  rules: {
    // The pages are written as compact template strings; a space before a line break is harmless.
    "no-trailing-whitespace": "off",
    // The public pages link the instance's icon (<link rel="icon">) from this same server: subresource
    // integrity is for scripts and stylesheets from other origins, which no page loads.
    "require-sri": "off",
  },
};

const validator = new HtmlValidate(VALIDATOR_CONFIG);

interface Problem {
  page: string;
  what: string;
}

/** The document as a small tree, enough for the checks of our own. */
interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  parent: Node | null;
  text: string;
}

function parse(html: string): Node {
  const root: Node = { name: "#root", attrs: {}, children: [], parent: null, text: "" };
  let current = root;
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const node: Node = { name, attrs, children: [], parent: current, text: "" };
        current.children.push(node);
        if (!VOID.has(name)) current = node;
      },
      ontext(text) {
        for (let n: Node | null = current; n; n = n.parent) n.text += text;
      },
      onclosetag(name) {
        if (VOID.has(name)) return;
        for (let n: Node | null = current; n && n !== root; n = n.parent) {
          if (n.name === name) {
            current = n.parent!;
            return;
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return root;
}

function* walk(node: Node): Generator<Node> {
  for (const child of node.children) {
    yield child;
    yield* walk(child);
  }
}

/** Our own checks: lang, one h1, a label for every form control, a name for every button. */
function ownChecks(html: string): string[] {
  const problems: string[] = [];
  const root = parse(html);
  const nodes = [...walk(root)];
  const htmlElement = nodes.find((n) => n.name === "html");
  if (!htmlElement?.attrs.lang?.trim()) problems.push("<html> has no lang");
  const h1s = nodes.filter((n) => n.name === "h1");
  if (h1s.length !== 1) problems.push(`${h1s.length} <h1> elements, not one`);
  const labelFor = new Set(nodes.filter((n) => n.name === "label" && n.attrs.for).map((n) => n.attrs.for!));
  for (const control of nodes.filter((n) => ["input", "textarea", "select"].includes(n.name))) {
    if (control.name === "input" && ["hidden", "submit", "button", "reset", "image"].includes(control.attrs.type ?? "text")) continue;
    let wrapped = false;
    for (let n = control.parent; n; n = n.parent) if (n.name === "label") wrapped = true;
    const labelled = wrapped || (control.attrs.id !== undefined && labelFor.has(control.attrs.id)) || !!control.attrs["aria-label"]?.trim() || !!control.attrs["aria-labelledby"];
    if (!labelled) problems.push(`<${control.name} name="${control.attrs.name ?? ""}"> has no label`);
  }
  for (const button of nodes.filter((n) => n.name === "button")) {
    if (!button.text.trim() && !button.attrs["aria-label"]) problems.push("a <button> without text");
  }
  return problems;
}

// ---- colour contrast ----

type Rgb = [number, number, number];

/** `#rgb` / `#rrggbb` (the forms the stylesheets use); anything else is a failure of the check, not skipped. */
function parseColour(value: string): Rgb {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim())?.[1];
  if (!hex) throw new Error(`colour not understood by the contrast check: ${value}`);
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: string, b: string): number {
  const [l1, l2] = [luminance(parseColour(a)), luminance(parseColour(b))].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

interface CssRule {
  selector: string;
  color?: string;
  background?: string;
  /** The colour of a `border` shorthand, when it has one. */
  border?: string;
}

function cssRules(css: string): CssRule[] {
  const rules: CssRule[] = [];
  for (const match of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const rule: CssRule = { selector: match[1]!.trim() };
    for (const declaration of match[2]!.split(";")) {
      const colon = declaration.indexOf(":");
      if (colon < 0) continue;
      const property = declaration.slice(0, colon).trim();
      const value = declaration.slice(colon + 1).trim();
      if (property === "color" && value !== "inherit") rule.color = value;
      // Backgrounds are plain colours here; a `background` shorthand with more than a colour would fail parseColour.
      if (property === "background" || property === "background-color") rule.background = value;
      if (property === "border") rule.border = /#[0-9a-f]{3,6}\b/i.exec(value)?.[0];
    }
    rules.push(rule);
  }
  return rules;
}

/**
 * The text/background pairs of a stylesheet: a rule giving both is one pair; text colours given alone (and the
 * body's) are read on every surface, the backgrounds given without a text colour (main, cards, notices…) and
 * the body's own. Images' placeholder backgrounds (`.avatar`) carry no text and are left out.
 */
export function colourPairs(css: string): { text: string; background: string; where: string }[] {
  const rules = cssRules(css);
  const body = rules.find((r) => r.selector === "body");
  if (!body?.color || !body.background) throw new Error("the stylesheet sets no body colour and background");
  const texts = [{ color: body.color, where: "body" }, ...rules.filter((r) => r.color && !r.background).map((r) => ({ color: r.color!, where: r.selector }))];
  const pairs = rules.filter((r) => r.color && r.background && r !== body).map((r) => ({ text: r.color!, background: r.background!, where: r.selector }));
  for (const text of texts) for (const surface of surfaces(rules)) pairs.push({ text: text.color, background: surface.background, where: `${text.where} on ${surface.where}` });
  return pairs;
}

/** The surfaces of a stylesheet: the body's background and the backgrounds set without a text colour. */
function surfaces(rules: CssRule[]) {
  const body = rules.find((r) => r.selector === "body")!;
  return [
    { background: body.background!, where: "body" },
    ...rules.filter((r) => r.background && !r.color && !/avatar|thumbnail|header/.test(r.selector)).map((r) => ({ background: r.background!, where: r.selector })),
  ];
}

/** Borders of form fields (what shows where to type) on every surface: non-text contrast, 3:1 (WCAG 1.4.11). */
export function fieldBorders(css: string): { border: string; background: string; where: string }[] {
  const rules = cssRules(css);
  return rules
    .filter((r) => r.border && /input|textarea|select/.test(r.selector))
    .flatMap((r) => surfaces(rules).map((s) => ({ border: r.border!, background: s.background, where: `${r.selector} on ${s.where}` })));
}

// ---- the pages ----

let t: TestApp;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let client: ClientApp;
const pages = new Map<string, { status: number; html: string }>();

async function open(jar: CookieJar, path: string, init: RequestInit = {}) {
  const res = await t.request(path, { ...init, headers: { accept: "text/html", cookie: jar.header(), ...(init.headers as Record<string, string>) } });
  jar.take(res);
  return res;
}

async function keep(name: string, res: Response, status: number) {
  const html = await res.text();
  if (res.status !== status) throw new Error(`${name}: ${res.status}, expected ${status}\n${html}`);
  expect(res.headers.get("content-type")).toStartWith("text/html");
  pages.set(name, { status, html });
  return html;
}

const csrfOf = (html: string) => hiddenFields(html).authenticity_token ?? "";

/** Opens `page` and posts its form to `action` with `fields`. */
async function submit(jar: CookieJar, page: string, action: string, fields: Record<string, string>) {
  const csrf = csrfOf(await (await open(jar, page)).text());
  return open(jar, action, { method: "POST", body: new URLSearchParams({ authenticity_token: csrf, ...fields }), headers: { "content-type": "application/x-www-form-urlencoded" } });
}

const signUp = (name: string, extra: Record<string, string> = {}) => ({
  username: name,
  email: `${name}@example.com`,
  password: "correct horse",
  password_confirmation: "correct horse",
  agreement: "1",
  ...extra,
});

async function post(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.request("/api/v1/statuses", { method: "POST", token, json: body });
  if (res.status !== 200) throw new Error(`post: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open", WARREN_REQUIRE_EMAIL_CONFIRMATION: "true", WARREN_CONTACT_EMAIL: "staff@localhost" });
  await addRule(t.deps, "Be kind", "No harassment");
  await addRule(t.deps, "No spam", "");
  await setInstanceDescription(t.deps, "A small place for friends & family.\n\nSecond paragraph.");
  alice = await signedInUser(t, "alice");
  const profile = await t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: alice.token,
    json: {
      display_name: "Alice <A&B>",
      note: "Gardener. Likes #tags and https://alice.example/ links.",
      fields_attributes: [
        { name: "Website", value: "https://alice.example/" },
        { name: "Pronouns", value: "she/her" },
      ],
    },
  });
  expect(profile.status).toBe(200);
  const first = await post(alice.token, { status: "Hello, public world #intro", visibility: "public" });
  const reply = await post(alice.token, { status: "Continuing my own thread", in_reply_to_id: first, visibility: "public" });
  await post(alice.token, { status: "And the end of it", in_reply_to_id: reply, visibility: "public" });
  await post(alice.token, { status: "Spoilers inside", spoiler_text: "Film ending", visibility: "public" });
  await post(alice.token, { status: "Which one?", poll: { options: ["Tea", "Coffee"], expires_in: 3600 }, visibility: "public" });
  const image = await uploadImage(t, alice.token, "A red square on white");
  await post(alice.token, { status: "Look at this", media_ids: [image.id], visibility: "public" });
  const sensitive = await uploadImage(t, alice.token, "A blurred photo");
  await post(alice.token, { status: "Careful", media_ids: [sensitive.id], sensitive: true, visibility: "public" });
  const pinned = await post(alice.token, { status: "Read me first", visibility: "public" });
  expect((await t.request(`/api/v1/statuses/${pinned}/pin`, { method: "POST", token: alice.token })).status).toBe(200);
  const bob = await createUser(t, "bob");
  await suspendAccount(t, bob.id);
  client = await createClientApp(t, "read write push profile", `https://client.example/cb\n${OOB}`);

  const jar = new CookieJar();
  const html = async (name: string, path: string, status = 200) => keep(name, await open(jar, path), status);
  const posted = async (name: string, page: string, action: string, fields: Record<string, string>, status: number, into = jar) =>
    keep(name, await submit(into, page, action, fields), status);

  // Public pages.
  await html("front page (open)", "/");
  await html("about", "/about");
  await html("privacy policy", "/privacy-policy");
  await html("profile with posts and fields", "/@alice");
  await html("suspended profile", "/@bob");
  await html("thread", `/@alice/${reply}`);
  await html("not found", "/@nobody", 404);

  // Sign-up in its three modes, and its answers.
  await html("sign-up (open)", "/auth/sign_up");
  await posted("sign-up with problems", "/auth/sign_up", "/auth/sign_up", signUp("admin", { password_confirmation: "other", agreement: "" }), 422);
  await posted("signed up, to confirm", "/auth/sign_up", "/auth/sign_up", signUp("carol"), 200);
  await posted("sign-in unconfirmed", "/auth/sign_in", "/auth/sign_in", { username: "carol", password: "correct horse" }, 403, new CookieJar());
  await setRegistrationMode(t.deps, "approval");
  await html("front page (approval)", "/");
  await html("sign-up (approval)", "/auth/sign_up");
  await setRegistrationMode(t.deps, "closed");
  await html("front page (closed)", "/");
  await html("sign-up (closed)", "/auth/sign_up");
  await setRegistrationMode(t.deps, "open");

  // Confirmation.
  await html("confirmation resend form", "/auth/confirmation/new");
  await posted("confirmation resent", "/auth/confirmation/new", "/auth/confirmation/new", { email: "nobody@example.com" }, 200);
  const confirm = await mailedLink(t.dir, "carol@example.com", "confirmation-", "/auth/confirmation?confirmation_token=");
  await html("address confirmed", confirm);
  await html("confirmation link used", confirm, 410);
  await html("confirmation link unknown", "/auth/confirmation?confirmation_token=nope", 404);

  // Sign-in.
  await html("sign-in", "/auth/sign_in");
  await posted("sign-in refused", "/auth/sign_in", "/auth/sign_in", { username: "alice", password: "wrong" }, 401);
  const signedIn = await submit(jar, "/auth/sign_in", "/auth/sign_in", { username: "alice", password: alice.password });
  expect(signedIn.status).toBe(303);
  await html("signed in", "/auth/sign_in");
  await posted("invalid form", "/auth/sign_in", "/auth/sign_out", { authenticity_token: "forged" }, 403);

  // Profile settings.
  await html("profile settings", "/settings/profile");
  await posted("profile settings saved", "/settings/profile", "/settings/profile", { display_name: "Alice", note: "Hi", locked: "1" }, 200);
  await posted("profile settings with problems", "/settings/profile", "/settings/profile", { display_name: "x".repeat(200), note: "Hi" }, 422);
  // Every other settings page of the nav between them, as it first shows (a page may be listed before it is
  // mounted while it is being written: a 404 is left out here, and tested by the settings pages' own tests).
  for (const [path] of SETTINGS_PAGES.filter(([href]) => href !== "/settings/profile")) {
    const res = await open(jar, path);
    if (res.status === 404) continue;
    await keep(`settings: ${path}`, res, 200);
  }

  // Authorization: consent with the session, the sign-in form without one, an error, the code, a refusal.
  const authorize = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, scope: "read write", ...params })}`;
  await html("authorize (signed in)", authorize({ redirect_uri: "https://client.example/cb" }));
  const anonymous = new CookieJar();
  await keep("authorize (sign-in form)", await open(anonymous, authorize({ redirect_uri: OOB })), 200);
  const page = await (await open(anonymous, authorize({ redirect_uri: OOB }))).text();
  const form = (fields: Record<string, string>) => ({ method: "POST", body: new URLSearchParams({ ...hiddenFields(page), ...fields }), headers: { "content-type": "application/x-www-form-urlencoded" } });
  await keep("authorize (wrong password)", await open(anonymous, "/oauth/authorize", form({ username: "alice", password: "wrong", decision: "approve" })), 401);
  await keep("authorization code", await open(anonymous, "/oauth/authorize", form({ username: "alice", password: alice.password, decision: "approve" })), 200);
  await html("authorize (unknown app)", "/oauth/authorize?response_type=code&client_id=nope&redirect_uri=x", 400);

  // Password reset.
  await html("password reset form", "/auth/password/new");
  await posted("password reset asked", "/auth/password/new", "/auth/password/new", { email: "alice@example.com" }, 200, new CookieJar());
  const reset = await mailedLink(t.dir, "alice@example.com", "password-reset", "/auth/password/edit?reset_password_token=");
  await html("new password form", reset);
  const token = new URL(reset, "http://x").searchParams.get("reset_password_token")!;
  await posted("new password with problems", reset, "/auth/password/edit", { reset_password_token: token, password: "short", password_confirmation: "other" }, 422);
  await posted("password changed", reset, "/auth/password/edit", { reset_password_token: token, password: "a new secret", password_confirmation: "a new secret" }, 200);
  await html("password link used", reset, 410);
});

afterAll(() => t?.close());

describe("every page", () => {
  test("was fetched", () => {
    expect(pages.size).toBeGreaterThanOrEqual(44);
    for (const path of ["preferences", "email", "password", "applications", "export", "delete"]) expect(pages.has(`settings: /settings/${path}`)).toBe(true);
  });

  test("is valid HTML by html-validate (recommended, document and a11y presets)", async () => {
    const problems: Problem[] = [];
    for (const [name, { html }] of pages) {
      const report = await validator.validateString(html);
      for (const result of report.results) {
        for (const m of result.messages) problems.push({ page: name, what: `${m.ruleId} (line ${m.line}:${m.column}): ${m.message}${m.selector ? ` [${m.selector}]` : ""}` });
      }
    }
    expect(problems).toEqual([]);
  });

  test("has <html lang>, one h1, a label for every form control and text on every button", () => {
    const problems: Problem[] = [];
    for (const [name, { html }] of pages) for (const what of ownChecks(html)) problems.push({ page: name, what });
    expect(problems).toEqual([]);
  });

  test("has text and background colours with a contrast of at least 4.5:1", () => {
    const problems: Problem[] = [];
    const seen = new Set<string>();
    const checked: string[] = [];
    for (const [name, { html }] of pages) {
      const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
      if (!css) {
        problems.push({ page: name, what: "no stylesheet" });
        continue;
      }
      if (seen.has(css)) continue;
      seen.add(css);
      for (const pair of colourPairs(css)) {
        const ratio = contrast(pair.text, pair.background);
        checked.push(`${pair.text} on ${pair.background}`);
        if (ratio < 4.5) problems.push({ page: name, what: `${pair.where}: ${pair.text} on ${pair.background} is ${ratio.toFixed(2)}:1` });
      }
    }
    // Among them: body text, buttons, notices and errors, muted text, links.
    for (const pair of ["#1d1b26 on #f2f1f6", "#1d1b26 on #fff", "#fff on #563acc", "#8a1c1c on #fde8e8", "#1c5a1c on #e8f3e8", "#5c5870 on #fff", "#563acc on #fff", "#222 on #f6f3ee", "#2f6a2a on #fff", "#fff on #2f6a2a", "#555 on #fff", "#666 on #f6f3ee"]) {
      expect(checked).toContain(pair);
    }
    expect(problems).toEqual([]);
  });

  test("has form fields whose borders have a contrast of at least 3:1 with what is around them", () => {
    const problems: Problem[] = [];
    let checked = 0;
    for (const [name, { html }] of pages) {
      if (!html.includes("<input")) continue;
      const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      for (const pair of fieldBorders(css)) {
        checked += 1;
        const ratio = contrast(pair.border, pair.background);
        if (ratio < 3) problems.push({ page: name, what: `${pair.where}: ${pair.border} on ${pair.background} is ${ratio.toFixed(2)}:1` });
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  test("uses four stylesheets", () => {
    const problems: Problem[] = [];
    const seen = new Set<string>();
    for (const [name, { html }] of pages) {
      const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
      if (css) seen.add(css);
      else problems.push({ page: name, what: "no stylesheet" });
    }
    // One stylesheet each: the public pages, /about, the /auth pages, the authorization page.
    expect(seen.size).toBe(4);
    expect(problems).toEqual([]);
  });
});

describe("the checks themselves", () => {
  test("the validator finds a missing label, a missing alt, a skipped heading level and a duplicate id", async () => {
    const bad = `<!doctype html><html lang="en"><head><title>x</title></head><body><main><h1>x</h1><h3>y</h3>
<img src="a.png"><form><input id="a" name="a"><input id="a" name="b" type="text"></form></main></body></html>`;
    const report = await validator.validateString(bad);
    const rules = new Set(report.results.flatMap((r) => r.messages.map((m) => m.ruleId)));
    for (const rule of ["input-missing-label", "wcag/h37", "heading-level", "no-dup-id"]) expect(rules).toContain(rule);
  });

  test("our checks find no lang, two h1s, an unlabelled control", () => {
    const problems = ownChecks(`<html><body><h1>a</h1><h1>b</h1><input name="q"><label><input name="ok"> ok</label></body></html>`);
    expect(problems).toEqual(["<html> has no lang", "2 <h1> elements, not one", '<input name="q"> has no label']);
  });

  test("colour pairs: a rule's own pair, and lone text colours on every surface", () => {
    const pairs = colourPairs("body{color:#111;background:#eee}main{background:#fff}.avatar{background:#ddd}.muted{color:#555}button{color:#fff;background:#00f}");
    expect(pairs.map((p) => `${p.where}: ${p.text} on ${p.background}`).sort()).toEqual(
      ["body on body: #111 on #eee", "body on main: #111 on #fff", ".muted on body: #555 on #eee", ".muted on main: #555 on #fff", "button: #fff on #00f"].sort(),
    );
  });

  test("field borders: the colour of an input's border on every surface", () => {
    const borders = fieldBorders("body{color:#111;background:#f2f1f6}main{background:#fff}input[type=text]{border:1px solid #b9b6c6}.avatar{border:4px solid #fff}");
    expect(borders.map((b) => `${b.where}: ${b.border} on ${b.background}`)).toEqual(["input[type=text] on body: #b9b6c6 on #f2f1f6", "input[type=text] on main: #b9b6c6 on #fff"]);
    // The light grey the forms had before: too faint to see where to type.
    expect(contrast("#b9b6c6", "#fff")).toBeLessThan(3);
  });

  test("contrast ratios are WCAG's", () => {
    expect(contrast("#000", "#fff")).toBeCloseTo(21, 5);
    expect(contrast("#777", "#fff")).toBeCloseTo(4.48, 2);
    expect(() => contrast("red", "#fff")).toThrow();
  });
});
