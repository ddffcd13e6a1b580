// The mails of the /auth pages over real SMTP (a server on loopback), sent by jobs on a worker thread: the
// confirmation link of a web sign-up confirms the account; the password reset link sets a new password. While
// the SMTP server refuses mail, the job is retried and nothing is lost.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { CookieJar } from "../helpers/oauth.ts";
import { mailHeader as header, readableMail as readable, startSmtpSink, type ReceivedMail as Received, type SmtpSink } from "../helpers/smtp.ts";

setDefaultTimeout(30_000);

/** Opens `page` for its CSRF field, then posts `fields` to `action`. */
async function submit(t: TestApp, jar: CookieJar, page: string, action: string, fields: Record<string, string>) {
  const opened = await t.request(page, { headers: { cookie: jar.header() } });
  jar.take(opened);
  const csrf = /name="authenticity_token" value="([^"]*)"/.exec(await opened.text())![1]!;
  const res = await t.request(action, { method: "POST", form: { authenticity_token: csrf, ...fields }, headers: { cookie: jar.header() } });
  jar.take(res);
  return res;
}

function link(mail: Received, path: string): string {
  const match = new RegExp(`http://localhost:3000(${path.replace("?", "\\?")}[A-Za-z0-9_=-]+)`).exec(readable(mail.raw));
  if (!match) throw new Error(`no ${path} link in ${mail.raw}`);
  return match[1]!;
}

describe("mails of the /auth pages over SMTP", () => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({
      WARREN_SMTP_URL: smtp.url,
      WARREN_SMTP_FROM: "warren@social.test",
      WARREN_JOB_WORKERS: "1",
      WARREN_REQUIRE_EMAIL_CONFIRMATION: "true",
      WARREN_REGISTRATIONS: "open",
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  test("a web sign-up is mailed a confirmation link that confirms it once", async () => {
    const jar = new CookieJar();
    const res = await submit(t, jar, "/auth/sign_up", "/auth/sign_up", {
      username: "mailed",
      email: "mailed@example.com",
      password: "correct horse",
      password_confirmation: "correct horse",
      agreement: "1",
    });
    expect(res.status).toBe(200);
    await t.deps.jobs.drain();
    expect(smtp.inbox).toHaveLength(1);
    const mail = smtp.inbox[0]!;
    expect(mail.to).toEqual(["mailed@example.com"]);
    expect(header(mail.raw, "Subject")).toBe("Warren: confirm your e-mail address");
    expect(header(mail.raw, "Message-ID")).toMatch(/^<confirmation-\d{18}-\d+@localhost>$/);
    const confirmation = link(mail, "/auth/confirmation?confirmation_token=");
    expect((await t.request("/api/v1/accounts/lookup?acct=mailed")).status).toBe(404);
    expect((await t.request(confirmation)).status).toBe(200);
    expect((await t.request("/api/v1/accounts/lookup?acct=mailed")).status).toBe(200);
    expect((await t.request(confirmation)).status).toBe(410);
  });

  test("a reset mail refused by the SMTP server is retried; its link sets the new password", async () => {
    const user = await createUser(t, "forgot", { password: "old password" });
    const before = smtp.inbox.length;
    smtp.refuse = true;
    const res = await submit(t, new CookieJar(), "/auth/password/new", "/auth/password/new", { email: user.email });
    expect(res.status).toBe(200);
    await eventually(() => smtp.refusals > 0, { what: "a refused mail", timeoutMs: 10_000 });
    expect(smtp.inbox.length).toBe(before);
    smtp.refuse = false;
    // The retry is delayed (backoff), which drain() does not wait for: it is polled.
    await eventually(
      async () => {
        await t.deps.jobs.drain();
        return smtp.inbox.length > before;
      },
      { what: "the retried mail", timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(smtp.inbox.length).toBe(before + 1);
    const mail = smtp.inbox.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    expect(header(mail.raw, "Subject")).toBe("Warren: reset your password");

    const jar = new CookieJar();
    const edit = link(mail, "/auth/password/edit?reset_password_token=");
    const token = new URLSearchParams(edit.split("?")[1]).get("reset_password_token")!;
    const changed = await submit(t, jar, edit, "/auth/password/edit", { reset_password_token: token, password: "new password 1", password_confirmation: "new password 1" });
    expect(changed.status).toBe(200);
    const signIn = await submit(t, jar, "/auth/sign_in", "/auth/sign_in", { username: "forgot", password: "new password 1" });
    expect(signIn.status).toBe(303);
    expect(jar.cookies.get("warren_session")).toBeTruthy();
  });
});
