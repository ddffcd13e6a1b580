// Hostile HTML from another server, through the wire: a peer actor whose name, bio, profile fields, profile
// URL and images carry scripts, handlers and javascript:/data: URLs, and a reply from it with hostile content
// and content warning. What Warren stores and serves again (the API's account and statuses, a local status
// mentioning it, that status as a Note, the status page with the reply under it) holds only Mastodon's
// elements, attributes and http(s) links. A real Warren instance with job workers on and the fake peer.
import { eventually } from "../helpers/eventually.ts";
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startFakePeer, type FakeActor, type FakePeer } from "../helpers/fake-peer.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { fragmentProblems, pageProblems, textOf } from "../helpers/html-safety.ts";

setDefaultTimeout(60_000);

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  "https://w3id.org/security/v1",
  { schema: "http://schema.org#", PropertyValue: "schema:PropertyValue", value: "schema:value", sensitive: "as:sensitive" },
];
const HOSTILE_NAME = `<img src=x onerror=alert(1)>Mal<script>alert(2)</script>`;
const HOSTILE_HTML = `<p onclick="alert(3)" style="color:red">Bio <a href="javascript:alert(4)">click</a><img src=x onerror=alert(5)><iframe src="https://evil.example/"></iframe>` +
  `<a href="https://ok.example/" class="evil mention" onmouseover="alert(6)" rel="opener">ok</a><svg><script>alert(7)</script></svg></p>`;

let warren: Instance;
let peer: FakePeer;
let mallet: FakeActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let malletId: string;

beforeAll(async () => {
  [warren, peer] = await Promise.all([startInstance(), startFakePeer()]);
  alice = await signedInUser(warren.t, "alice");
  mallet = await peer.actor("mallet", {
    "@context": CONTEXT,
    name: HOSTILE_NAME,
    summary: HOSTILE_HTML,
    url: "javascript:alert(8)",
    icon: { type: "Image", mediaType: "image/png", url: "javascript:alert(9)" },
    image: { type: "Image", mediaType: "image/png", url: "data:text/html,<script>alert(10)</script>" },
    attachment: [
      { type: "PropertyValue", name: `<b onclick="alert(11)">Site</b>`, value: `<a href="javascript:alert(12)">click</a><img src=x onerror=alert(13)>` },
      { type: "PropertyValue", name: "Home", value: HOSTILE_HTML },
    ],
  });
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(`@mallet@${peer.domain}`)}&resolve=true&type=accounts`, alice.token);
  malletId = found.accounts[0].id;
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

const isHttp = (url: string) => /^https?:\/\//.test(url);

test("the remote account is stored cleaned: plain names, Mastodon's markup only, http(s) URLs only", async () => {
  const account = await json(warren, `/api/v1/accounts/${malletId}`, alice.token);
  expect(account.display_name).toBe("Mal");
  expect(account.fields.map((f: any) => f.name)).toEqual(["Site", "Home"]);
  for (const field of account.fields) expect(fragmentProblems(field.value)).toEqual([]);
  expect(textOf(account.fields[0].value)).toBe("click");
  expect(fragmentProblems(account.note)).toEqual([]);
  expect(account.note).toContain(`<a href="https://ok.example/" rel="nofollow noopener noreferrer" target="_blank" class="mention">ok</a>`);
  expect(textOf(account.note)).not.toContain("alert");
  // A javascript: profile URL falls back to the actor id; javascript: or data: images are not kept.
  expect(account.url).toBe(mallet.id);
  for (const url of [account.avatar, account.avatar_static, account.header, account.header_static]) expect(isHttp(url)).toBe(true);
});

test("a local status mentioning it, and a hostile reply from it, are served with safe markup in the API, as a Note and on the status page", async () => {
  const posted = await json(warren, "/api/v1/statuses", alice.token, {
    method: "POST",
    body: JSON.stringify({ status: `Hello @mallet@${peer.domain}`, visibility: "public" }),
    headers: { "content-type": "application/json" },
  });
  expect(posted.mentions.map((m: any) => m.url)).toEqual([mallet.id]);
  expect(fragmentProblems(posted.content)).toEqual([]);
  expect(posted.content).toContain(`href="${mallet.id}"`);

  const noteRes = await fetch(posted.uri, { headers: { accept: "application/activity+json" } });
  expect(fragmentProblems(((await noteRes.json()) as any).content)).toEqual([]);

  const reply = {
    id: `${mallet.id}/statuses/1`,
    type: "Note",
    attributedTo: mallet.id,
    inReplyTo: posted.uri,
    content: HOSTILE_HTML,
    summary: `<b onclick="alert(14)">cw</b>`,
    published: new Date().toISOString(),
    url: "javascript:alert(15)",
    to: [PUBLIC],
    cc: [`${mallet.id}/followers`, `http://${warren.domain}/users/alice`],
  };
  const sent = await peer.send(mallet, `http://${warren.domain}/inbox`, {
    "@context": CONTEXT, id: `${mallet.id}#create/1`, type: "Create", actor: mallet.id, object: reply, to: reply.to, cc: reply.cc,
  });
  expect(sent.status).toBe(202);
  const stored = await eventually(async () => (await json(warren, `/api/v1/statuses/${posted.id}/context`, alice.token)).descendants[0]);
  expect(fragmentProblems(stored.content)).toEqual([]);
  expect(stored.spoiler_text).toBe("cw");
  expect(stored.url).toBe(reply.id);
  expect(stored.account.url).toBe(mallet.id);

  const page = await fetch(`http://${warren.domain}/@alice/${posted.id}`, { headers: { accept: "text/html" } });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(pageProblems(html)).toEqual([]);
  expect(textOf(html)).toContain("Bio click");
  expect(textOf(html)).not.toContain("alert");
});
