// E-mail on follow requests (spec, Events 1): a follow request to a locked account mails its owner from a
// job. With SMTP configured, a real SMTP server on loopback receives it (the job runs in a worker thread);
// without, the message lands as an .eml file under <data dir>/outbox/.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp.ts";
import { newUser, post, updateProfile } from "../http/relationships-helpers.ts";

setDefaultTimeout(30_000);

/** Undoes quoted-printable soft line breaks and escapes, enough to read the text of a message. */
function readable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1];
}

async function lockedOwner(t: TestApp) {
  const owner = await newUser(t, "owner");
  await updateProfile(t, owner, { locked: true });
  return owner;
}

describe("with SMTP configured", () => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({
      WARREN_SMTP_URL: smtp.url,
      WARREN_SMTP_FROM: "warren@social.test",
      WARREN_JOB_WORKERS: "1",
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  test("a follow request to a locked account mails its owner, naming the requester", async () => {
    const owner = await lockedOwner(t);
    const fan = await newUser(t, "fan");
    await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: fan.token, json: { display_name: "Fan Club" } });
    const res = await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    expect(res.body.requested).toBe(true);
    await t.deps.jobs.drain();
    expect(smtp.inbox).toHaveLength(1);
    const mail = smtp.inbox[0]!;
    expect(mail.to).toEqual([owner.email]);
    expect(mail.from).toBe("warren@social.test");
    expect(header(mail.raw, "To")).toContain(owner.email);
    expect(header(mail.raw, "Subject")).toBe(`Pending follower: Fan Club (@${fan.username}@localhost:3000)`);
    const text = readable(mail.raw);
    expect(text).toContain(`Fan Club (@${fan.username}@localhost:3000) has requested to follow you.`);
    expect(text).toContain(`http://localhost:3000/@${fan.username}`);
    // follow requests never appear in the notifications API, and calling follow again sends no new mail
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token, { reblogs: false });
    await t.deps.jobs.drain();
    expect(smtp.inbox).toHaveLength(1);
    expect(existsSync(join(t.dir, "outbox"))).toBe(false);
  });

  test("no mail for following an unlocked account, nor for a request withdrawn before the job ran", async () => {
    const before = smtp.inbox.length;
    const open = await newUser(t, "open");
    const owner = await lockedOwner(t);
    const fan = await newUser(t, "fan");
    await post(t, `/api/v1/accounts/${open.id}/follow`, fan.token);
    t.deps.jobs.pause();
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    await post(t, `/api/v1/accounts/${owner.id}/unfollow`, fan.token);
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    expect(smtp.inbox.length).toBe(before);
  });
});

describe("without SMTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test("the mail is written as an .eml file under data/outbox/", async () => {
    const owner = await lockedOwner(t);
    const fan = await newUser(t, "fan");
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    await t.deps.jobs.drain();
    const dir = join(t.dir, "outbox");
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^follow-request-\d+\.eml$/);
    const raw = readFileSync(join(dir, files[0]!), "utf8");
    expect(header(raw, "To")).toBe(owner.email);
    expect(header(raw, "Subject")).toBe(`Pending follower: @${fan.username}@localhost:3000`);
    expect(header(raw, "Message-ID")).toMatch(/^<follow-request-\d+@localhost>$/);
    expect(readable(raw)).toContain(`@${fan.username}@localhost:3000 has requested to follow you.`);
  });
});
