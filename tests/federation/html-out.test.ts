// The HTML Warren emits for a local account, through HTTP, with hostile input everywhere a user can type:
// display name, bio, profile field names and values, status text, content warning, poll options. The actor
// (Accept: application/activity+json) and the Note carry only Mastodon's elements, attributes and http(s)
// links, rendered exactly as the API renders them (profile field values were once served raw over
// ActivityPub); the API's answers are pinned byte for byte; the profile page, the status page and the RSS feed
// hold no script, handler or javascript: link, and show the hostile text as text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { fragmentProblems, pageProblems, textOf, xmlTexts } from "../helpers/html-safety.ts";

const AP = { accept: "application/activity+json" };
const BROWSER = { accept: "text/html" };

const HOSTILE_VALUE = `<a href="javascript:alert(1)">click</a><img src=x onerror=alert(2)>`;
const FIELDS = [
  { name: "Site", value: HOSTILE_VALUE },
  { name: `<b onmouseover="alert(3)">Name</b>`, value: `"><svg onload=alert(4)> https://alice.example/me?a=1&b=2` },
  { name: "Plain", value: "javascript:alert(5)" },
];
const DISPLAY_NAME = `<script>alert(6)</script>A"&`;
const BIO = `Hi <img src=x onerror=alert(7)>\n\n<a href="javascript:alert(8)">me</a> https://alice.example/`;
const STATUS = `Look <script>alert(9)</script> <a href="javascript:alert(10)">here</a> https://example.com/x?y=<z> #tag`;
const SPOILER = `<img src=x onerror=alert(11)>`;
const OPTIONS = [`<b onclick="alert(12)">yes</b>`, `<iframe src="javascript:alert(13)">`];

let t: TestApp;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let statusId: string;
let statusUri: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await signedInUser(t, "alice");
  const profile = await t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: alice.token,
    json: { display_name: DISPLAY_NAME, note: BIO, fields_attributes: FIELDS },
  });
  expect(profile.status).toBe(200);
  const res = await t.request("/api/v1/statuses", {
    method: "POST",
    token: alice.token,
    json: { status: STATUS, spoiler_text: SPOILER, language: "en", poll: { options: OPTIONS, expires_in: 3600 } },
  });
  expect(res.status).toBe(200);
  ({ id: statusId, uri: statusUri } = (await res.json()) as { id: string; uri: string });
});
afterAll(() => t.close());

async function body(path: string, headers: Record<string, string>): Promise<string> {
  const res = await t.request(path, { headers });
  expect(res.status).toBe(200);
  return res.text();
}

const apiAccount = async () => (await (await t.request(`/api/v1/accounts/${alice.id}`)).json()) as any;
const list = (value: unknown): any[] => (value == null ? [] : Array.isArray(value) ? value : [value]);

describe("the API (unchanged)", () => {
  test("field values are escaped text with their URLs linked (rel=me), as Mastodon's format_field", async () => {
    const account = await apiAccount();
    expect(account.fields.map((f: any) => f.value)).toEqual([
      "&lt;a href=&quot;javascript:alert(1)&quot;&gt;click&lt;/a&gt;&lt;img src=x onerror=alert(2)&gt;",
      "&quot;&gt;&lt;svg onload=alert(4)&gt; " +
        '<a href="https://alice.example/me?a=1&amp;b=2" target="_blank" rel="nofollow noopener me" translate="no">' +
        '<span class="invisible">https://</span><span class="">alice.example/me?a=1&amp;b=2</span><span class="invisible"></span></a>',
      "javascript:alert(5)",
    ]);
    expect(account.fields.map((f: any) => f.name)).toEqual(FIELDS.map((f) => f.name));
    expect(account.display_name).toBe(DISPLAY_NAME);
    expect(fragmentProblems(account.note)).toEqual([]);
    expect(textOf(account.note)).toBe(BIO.replace("\n\n", ""));
  });
});

describe("ActivityPub", () => {
  test("the actor's field values are the API's, and its bio holds Mastodon's markup only", async () => {
    const actor = JSON.parse(await body("/users/alice", AP));
    const api = await apiAccount();
    const attachments = list(actor.attachment);
    expect(attachments.map((a) => a.type)).toEqual(["PropertyValue", "PropertyValue", "PropertyValue"]);
    expect(attachments.map((a) => a.value)).toEqual(api.fields.map((f: any) => f.value));
    for (const attachment of attachments) expect(fragmentProblems(attachment.value)).toEqual([]);
    expect(attachments.map((a) => textOf(a.value))).toEqual(FIELDS.map((f) => f.value));
    // Names and display names are plain text over ActivityPub, as Mastodon sends them.
    expect(attachments.map((a) => a.name)).toEqual(FIELDS.map((f) => f.name));
    expect(actor.name).toBe(DISPLAY_NAME);
    expect(actor.summary).toBe(api.note);
    expect(fragmentProblems(actor.summary)).toEqual([]);
  });

  test("the Note's content is the API's; the content warning and poll options are plain text, as Mastodon's", async () => {
    const note = JSON.parse(await body(new URL(statusUri).pathname, AP));
    const api = (await (await t.request(`/api/v1/statuses/${statusId}`)).json()) as any;
    expect(note.type).toBe("Question");
    expect(note.content).toBe(api.content);
    expect(note.contentMap).toEqual({ en: api.content });
    expect(fragmentProblems(note.content)).toEqual([]);
    expect(textOf(note.content)).toBe(STATUS);
    expect(note.content).toContain('<a href="https://example.com/x?y=" target="_blank" rel="nofollow noopener"');
    expect(note.summary).toBe(SPOILER);
    expect(list(note.oneOf).map((o) => o.name)).toEqual(OPTIONS);
  });
});

describe("web pages", () => {
  test("the profile page: no script, handler or javascript: link; the hostile text shown as text", async () => {
    const page = await body("/@alice", BROWSER);
    expect(pageProblems(page)).toEqual([]);
    const text = textOf(page);
    for (const shown of [DISPLAY_NAME, HOSTILE_VALUE, FIELDS[1]!.name, "<script>alert(9)</script>", SPOILER, ...OPTIONS]) {
      expect(text).toContain(shown);
    }
  });

  test("the status page: the same", async () => {
    const page = await body(`/@alice/${statusId}`, BROWSER);
    expect(pageProblems(page)).toEqual([]);
    const text = textOf(page);
    for (const shown of [DISPLAY_NAME, "<script>alert(9)</script>", SPOILER, ...OPTIONS]) expect(text).toContain(shown);
  });

  test("the RSS feed: its title is text and each description's HTML holds Mastodon's markup only", async () => {
    const feed = await body("/@alice.rss", BROWSER);
    expect(xmlTexts(feed, "title")[0]).toBe(`${DISPLAY_NAME} (@alice@localhost:3000)`);
    const [description] = xmlTexts(feed, "description").slice(1);
    expect(pageProblems(description!)).toEqual([]);
    expect(fragmentProblems(description!.replace("<hr />", ""))).toEqual([]);
    expect(textOf(description!)).toBe(`${SPOILER}${STATUS}`);
  });
});
