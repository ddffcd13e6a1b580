// Shared steps of the /admin pages tests: staff signed in with a browser (cookies and CSRF, tests/helpers/web.ts),
// sign-ups waiting for approval made through the sign-up page, reports filed through the API, and html-validate
// with the configuration of html-validity.test.ts.
import { expect, setDefaultTimeout } from "bun:test";
import { HtmlValidate } from "html-validate";
import type { TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { WebBrowser } from "../helpers/web.ts";
import { newUser, postStatus, reported } from "./reports-helpers.ts";
import type { RoleName } from "../../src/model/accounts.ts";

setDefaultTimeout(30_000);

let counter = 0;

/** A user with `role`, signed in with a fresh browser. */
export async function staffBrowser(t: TestApp, role: RoleName, prefix = role.toLowerCase()) {
  const username = `${prefix}${++counter}`;
  const user = await createUser(t, username, { role });
  const browser = await new WebBrowser(t).signIn(username, user.password);
  return { ...user, browser };
}

/** A sign-up through /auth/sign_up while registrations need approval; returns its username. */
export async function pendingSignUp(t: TestApp, username: string, reason = "I'd like to join <b>please</b>"): Promise<string> {
  const fields = { username, email: `${username}@example.com`, password: "a long enough secret", password_confirmation: "a long enough secret", agreement: "1", reason };
  const res = await new WebBrowser(t, "192.0.2.77").submit("/auth/sign_up", "/auth/sign_up", fields);
  if (res.res.status !== 200 && res.res.status !== 303) throw new Error(`sign-up failed: ${res.res.status}`);
  return username;
}

/** A report with one status, filed through the API: the reporter, the reported user and the report's JSON. */
export async function filedReport(t: TestApp, text = "buy <cheap> things at https://spam.example") {
  const [reporter, target] = [await newUser(t, "rep"), await newUser(t, "bad")];
  const status = await postStatus(t, target, text);
  const report = await reported(t, reporter, { account_id: target.id, status_ids: [status.id], comment: "this is spam & more", category: "spam" });
  return { reporter, target, status, report };
}

const validator = new HtmlValidate({
  extends: ["html-validate:recommended", "html-validate:document", "html-validate:a11y"],
  rules: { "no-trailing-whitespace": "off", "require-sri": "off" },
});

/** html-validate's complaints about a page, as "rule: message" lines. */
export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId} (${m.line}:${m.column}): ${m.message}${m.selector ? ` [${m.selector}]` : ""}`));
}

/** Opens `path` with `browser`, expects `status` and a valid page; returns it. */
export async function validPage(browser: WebBrowser, path: string, status = 200) {
  const page = await browser.open(path);
  expect(page.res.status).toBe(status);
  expect(page.res.headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(await htmlProblems(page.html)).toEqual([]);
  return page;
}
