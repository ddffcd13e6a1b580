// Quote posts (Mastodon 4.5, local): quoted_status_id and quote_approval_policy on POST /api/v1/statuses,
// the Quote entity as each viewer may see it, quotes_count, quote_approval, source[quote_policy], the quotes
// list, revoking, the interaction policy, and the `quote` / `quoted_update` notifications.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, call, follow, get, mute, newUser, post, postStatus, type User } from "./statuses-helpers.ts";
import { createRestAPIClient } from "masto";
import { recount } from "../../src/domain/recount.ts";
import { publicId } from "../../src/lib/ids.ts";
import { remoteAccount, remoteStatus } from "./timelines-helpers.ts";
import { publishScheduled } from "../../src/domain/statuses/scheduled-publish.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { getStatus, putStatus } from "../../src/store/statuses.ts";

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_CACHE_STATUS_HEADER: "on", WARREN_JOB_WORKERS: "2" });
  [alice, bob, carol] = await Promise.all([newUser(t, "qalice"), newUser(t, "qbob"), newUser(t, "qcarol")]);
}, 60_000);
afterAll(() => t.close());

const quote = (user: User, id: string, json: Record<string, unknown> = {}) => post(t, "/api/v1/statuses", user.token, { status: "quoting", quoted_status_id: id, ...json });
const show = async (user: User | null, id: string) => (await get(t, `/api/v1/statuses/${id}`, user?.token)).body;
const notifications = async (user: User, type: string) => (await get(t, `/api/v1/notifications?types[]=${type}`, user.token)).body as any[];
const NOT_FOUND = { error: "The post you are trying to quote does not appear to exist." };

describe("quoting", () => {
  test("a public status is quoted at once: accepted, counted, its author notified; the text may be blank, RE: link first", async () => {
    const original = await postStatus(t, alice, "quote me");
    expect(original.quotes_count).toBe(0);
    expect(original.quote).toBeNull();
    expect(original.quote_approval).toEqual({ automatic: ["public"], manual: [], current_user: "automatic" });
    const res = await post(t, "/api/v1/statuses", bob.token, { status: "", quoted_status_id: original.id });
    expect(res.status).toBe(200);
    // Mastodon's fallback for clients without quotes, unless the text links the quoted status itself.
    expect(res.body.content).toStartWith(`<p class="quote-inline">RE: <a href="${original.url}" target="_blank" rel="nofollow noopener" translate="no">`);
    expect(res.body.content).toEndWith("</a></p>");
    expect(res.body.quote.state).toBe("accepted");
    expect(res.body.quote.quoted_status).toMatchObject({ id: original.id, content: "<p>quote me</p>", quotes_count: 1 });
    expect(res.body.quote.quoted_status.quote).toBeNull();
    expect((await show(carol, original.id)).quotes_count).toBe(1);
    expect((await show(null, original.id)).quote_approval.current_user).toBe("denied");
    const [n] = (await notifications(alice, "quote")).filter((x) => x.status?.id === res.body.id);
    expect(n).toMatchObject({ type: "quote", account: { id: bob.id } });
    const linked = await quote(carol, original.id, { status: `see ${original.url}` });
    expect(linked.body.content).not.toContain("quote-inline");
  });

  test("a status from another server: pending when its policy lets the quoter (its server answers), else 404", async () => {
    const author = await remoteAccount(t, "faraway");
    const remote = await remoteStatus(t, author, { content: "<p>from afar</p>", quotePolicy: "public" });
    const res = await quote(bob, publicId(remote.id));
    expect(res.status).toBe(200);
    expect(res.body.quote).toEqual({ state: "pending", quoted_status: null });
    // Not counted until accepted (tests/federation/quotes.test.ts has the exchange).
    expect((await show(bob, publicId(remote.id))).quotes_count ?? 0).toBe(0);
    const closed = await remoteStatus(t, author, { content: "<p>not for quoting</p>" });
    expect(await quote(bob, publicId(closed.id))).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  test("a reblog's id quotes what it wraps; unknown ids are 404", async () => {
    const original = await postStatus(t, alice, "boosted");
    const reblog = (await post(t, `/api/v1/statuses/${original.id}/reblog`, carol.token)).body;
    const res = await quote(bob, reblog.id);
    expect(res.body.quote.quoted_status.id).toBe(original.id);
    for (const id of ["999999999999999999", "nonsense"]) expect(await quote(bob, id)).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  test("quote_approval_policy: nobody refuses others (404) but not the author; followers only followers", async () => {
    const closed = await postStatus(t, alice, { status: "nobody", quote_approval_policy: "nobody" });
    expect(closed.quote_approval).toEqual({ automatic: [], manual: [], current_user: "automatic" });
    expect((await show(bob, closed.id)).quote_approval.current_user).toBe("denied");
    expect(await quote(bob, closed.id)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await quote(alice, closed.id)).body.quote.state).toBe("accepted");

    const followers = await postStatus(t, alice, { status: "followers", quote_approval_policy: "followers" });
    expect(followers.quote_approval.automatic).toEqual(["followers"]);
    expect((await quote(carol, followers.id)).status).toBe(404);
    await follow(t, carol, alice);
    expect((await show(carol, followers.id)).quote_approval.current_user).toBe("automatic");
    expect((await quote(carol, followers.id)).status).toBe(200);
    expect((await post(t, "/api/v1/statuses", bob.token, { status: "x", quote_approval_policy: "everyone" })).status).toBe(422);
  });

  test("private and direct statuses: nobody else may quote them; the author's quote of a private one is private", async () => {
    const priv = await postStatus(t, alice, { status: "followers only", visibility: "private", quote_approval_policy: "public" });
    expect(priv.quote_approval.automatic).toEqual([]);
    await follow(t, bob, alice);
    expect(await quote(bob, priv.id)).toMatchObject({ status: 404, body: NOT_FOUND });
    const own = await quote(alice, priv.id, { visibility: "public" });
    expect(own.body).toMatchObject({ visibility: "private", quote: { state: "accepted" } });
    const direct = await postStatus(t, alice, { status: `@${bob.username} secret`, visibility: "direct" });
    expect(await quote(bob, direct.id)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await show(bob, direct.id)).quote_approval.current_user).toBe("denied");
  });

  test("an author who blocks the quoter: 404; a direct quote must mention the quoted author", async () => {
    const dave = await newUser(t, "qdave");
    const original = await postStatus(t, dave, "no quotes from carol");
    await block(t, dave, carol);
    expect(await quote(carol, original.id)).toMatchObject({ status: 404, body: NOT_FOUND });
    const unmentioned = await quote(bob, original.id, { visibility: "direct" });
    expect(unmentioned.status).toBe(422);
    const mentioned = await quote(bob, original.id, { visibility: "direct", status: `@${dave.username} look` });
    expect(mentioned.body.quote.state).toBe("accepted");
  });

  test("a scheduled quote keeps its quote and policy; published, it quotes what may still be quoted, else nothing", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const original = await postStatus(t, alice, "later");
    const doomed = await postStatus(t, alice, "gone by then");
    const scheduled = (await quote(bob, original.id, { scheduled_at: at, quote_approval_policy: "followers" })).body;
    expect(scheduled.params).toMatchObject({ quoted_status_id: original.id, quote_approval_policy: "followers" });
    const orphan = (await quote(bob, doomed.id, { scheduled_at: at, status: "orphan" })).body;
    expect((await quote(bob, doomed.id, { scheduled_at: at, visibility: "direct" })).status).toBe(422);
    await call(t, "DELETE", `/api/v1/statuses/${doomed.id}`, alice.token);
    for (const s of [scheduled, orphan]) await publishScheduled(t.deps, { id: normaliseId(s.id)!, scheduledAt: Date.parse(at) });
    const [newest, older] = (await get(t, `/api/v1/accounts/${bob.id}/statuses?limit=2`, bob.token)).body;
    expect(older).toMatchObject({ quote: { state: "accepted", quoted_status: { id: original.id } }, quote_approval: { automatic: ["followers"] } });
    expect((await show(alice, original.id)).quotes_count).toBe(1);
    expect(newest).toMatchObject({ content: "<p>orphan</p>", quote: null });
  });
});

describe("what each viewer sees", () => {
  test("a private quote is seen by the quoted author (silently mentioned), who is notified", async () => {
    const erin = await newUser(t, "qerin");
    const original = await postStatus(t, erin, "erin's");
    const res = await quote(bob, original.id, { visibility: "private" });
    expect((await get(t, `/api/v1/statuses/${res.body.id}`, erin.token)).status).toBe(200);
    expect((await get(t, `/api/v1/statuses/${res.body.id}`, carol.token)).status).toBe(404);
    expect((await notifications(erin, "quote")).map((n) => n.status.id)).toContain(res.body.id);
    expect(res.body.mentions).toEqual([]);
  });

  test("a quote never reveals a status its viewer may not see: unauthorized, without the status", async () => {
    const frank = await newUser(t, "qfrank");
    const priv = await postStatus(t, alice, { status: "alice's followers only", visibility: "private" });
    const own = await quote(alice, priv.id, { visibility: "direct", status: `@${frank.username} see this` });
    const seen = await show(frank, own.body.id);
    expect(seen.quote).toEqual({ state: "unauthorized", quoted_status: null });
    expect(JSON.stringify(seen)).not.toContain("alice's followers only");
    expect((await show(alice, own.body.id)).quote.quoted_status.id).toBe(priv.id);
  });

  test("blocking or muting the quoted author: blocked_account / muted_account; a block by them: unauthorized", async () => {
    const gina = await newUser(t, "qgina");
    const original = await postStatus(t, gina, "gina's");
    const q = (await quote(bob, original.id)).body;
    const hank = await newUser(t, "qhank");
    await mute(t, hank, gina);
    expect((await show(hank, q.id)).quote).toMatchObject({ state: "muted_account", quoted_status: { id: original.id } });
    const ivy = await newUser(t, "qivy");
    await block(t, ivy, gina);
    expect((await show(ivy, q.id)).quote.state).toBe("blocked_account");
    const jay = await newUser(t, "qjay");
    await block(t, gina, jay);
    expect((await show(jay, q.id)).quote).toEqual({ state: "unauthorized", quoted_status: null });
  });

  test("a quote of a status from a domain the viewer blocks: blocked_domain (a quote from another server)", async () => {
    const author = await remoteAccount(t, "farquoted", "blocked-quotes.example");
    const quoted = await remoteStatus(t, author, { content: "<p>from a blocked domain</p>" });
    const quoter = await remoteAccount(t, "farquoter", "elsewhere.example");
    const quoting = await remoteStatus(t, quoter, { quote: { statusId: quoted.id, accountId: author.id, state: "accepted" } });
    const mia = await newUser(t, "qmia");
    expect((await show(mia, publicId(quoting.id))).quote).toMatchObject({ state: "accepted", quoted_status: { id: publicId(quoted.id) } });
    await post(t, "/api/v1/domain_blocks", mia.token, { domain: "blocked-quotes.example" });
    expect((await show(mia, publicId(quoting.id))).quote).toMatchObject({ state: "blocked_domain", quoted_status: { id: publicId(quoted.id) } });
  });

  test("a quote inside a quoted status is shallow: its state and id", async () => {
    const first = await postStatus(t, alice, "first");
    const second = (await quote(bob, first.id)).body;
    const third = (await quote(carol, second.id)).body;
    expect(third.quote.quoted_status.quote).toEqual({ state: "accepted", quoted_status_id: first.id });
  });

  test("timelines render the viewer's quote (the rendered-status cache splices it in)", async () => {
    const original = await postStatus(t, alice, "on a timeline");
    const q = (await quote(bob, original.id)).body;
    const timeline = async (user: User) => (await get(t, `/api/v1/accounts/${bob.id}/statuses?limit=5`, user.token)).body as any[];
    for (let i = 0; i < 2; i++) {
      const page = await timeline(carol);
      expect(page.find((s) => s.id === q.id).quote).toMatchObject({ state: "accepted", quoted_status: { id: original.id } });
    }
    // A reblog of the quote: the wrapper quotes nothing and shows the approval of what it wraps.
    await post(t, `/api/v1/statuses/${q.id}/reblog`, carol.token);
    const [wrapper] = (await get(t, `/api/v1/accounts/${carol.id}/statuses?limit=1`, bob.token)).body;
    expect(wrapper).toMatchObject({ quote: null, reblog: { id: q.id, quote: { state: "accepted", quoted_status: { id: original.id } } } });
    expect(wrapper.quote_approval).toEqual(wrapper.reblog.quote_approval);
    await post(t, `/api/v1/statuses/${original.id}/quotes/${q.id}/revoke`, alice.token);
    expect((await timeline(carol)).find((s) => s.id === q.id).quote).toEqual({ state: "revoked", quoted_status: null });
  });
});

describe("deleting", () => {
  test("the quoted status deleted: the quote shows deleted; the quoting one deleted: the count goes down", async () => {
    const original = await postStatus(t, alice, "to delete");
    const q1 = (await quote(bob, original.id)).body;
    const q2 = (await quote(carol, original.id)).body;
    expect((await show(alice, original.id)).quotes_count).toBe(2);
    expect((await call(t, "DELETE", `/api/v1/statuses/${q2.id}`, carol.token)).status).toBe(200);
    expect((await show(alice, original.id)).quotes_count).toBe(1);
    expect((await call(t, "DELETE", `/api/v1/statuses/${original.id}`, alice.token)).status).toBe(200);
    expect((await show(bob, q1.id)).quote).toEqual({ state: "deleted", quoted_status: null });
    await t.deps.jobs.drain();
    expect((await show(bob, q1.id)).quote).toEqual({ state: "deleted", quoted_status: null });
  });
});

describe("the quoted author's tools", () => {
  test("GET /quotes: paged with Link headers, not those of accounts the viewer mutes; any reader of the status, anonymous 401", async () => {
    const original = await postStatus(t, alice, "listed");
    const ids: string[] = [];
    for (const user of [bob, carol, bob]) ids.push((await quote(user, original.id)).body.id);
    const first = await get(t, `/api/v1/statuses/${original.id}/quotes?limit=2`, alice.token);
    expect(first.status).toBe(200);
    expect(first.body.map((s: any) => s.id)).toEqual([ids[2], ids[1]]);
    const link = first.headers.get("link")!;
    expect(link).toContain(`max_id=${ids[1]}`);
    expect(link).toContain(`since_id=${ids[2]}`);
    const next = await get(t, new URL(link.match(/<([^>]+)>; rel="next"/)![1]!).pathname + `?limit=2&max_id=${ids[1]}`, alice.token);
    expect(next.body.map((s: any) => s.id)).toEqual([ids[0]]);
    const muted = await newUser(t, "qmuted");
    const mutedQuote = (await quote(muted, original.id)).body.id;
    await mute(t, alice, muted);
    expect((await get(t, `/api/v1/statuses/${original.id}/quotes`, alice.token)).body.map((s: any) => s.id)).toEqual([...ids].reverse());
    // Mastodon 4.6 lets anyone who may see the status list its quotes (masto.js reads them as another user).
    const others = await get(t, `/api/v1/statuses/${original.id}/quotes`, bob.token);
    expect(others.status).toBe(200);
    expect(others.body.map((s: any) => s.id)).toEqual([mutedQuote, ...[...ids].reverse()]);
    expect((await get(t, `/api/v1/statuses/${original.id}/quotes`)).status).toBe(401);
    const secret = await postStatus(t, alice, { status: "followers only", visibility: "private" });
    expect((await get(t, `/api/v1/statuses/${secret.id}/quotes`, (await newUser(t, "qstranger")).token)).status).toBe(404);
  });

  test("revoke: revoked, uncounted, off the list; only by the quoted author; a status not quoting it is 404", async () => {
    const original = await postStatus(t, alice, "revocable");
    const q = (await quote(bob, original.id)).body;
    const path = `/api/v1/statuses/${original.id}/quotes/${q.id}/revoke`;
    expect((await post(t, path, bob.token)).status).toBe(403);
    const other = await postStatus(t, bob, "not a quote");
    expect((await post(t, `/api/v1/statuses/${original.id}/quotes/${other.id}/revoke`, alice.token)).status).toBe(404);
    const res = await post(t, path, alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: q.id, quote: { state: "revoked", quoted_status: null } });
    expect((await show(alice, original.id)).quotes_count).toBe(0);
    expect((await get(t, `/api/v1/statuses/${original.id}/quotes`, alice.token)).body).toEqual([]);
    expect((await post(t, path, alice.token)).body.quote.state).toBe("revoked");
    expect((await show(alice, original.id)).quotes_count).toBe(0);
    // A quote by someone who blocks the quoted author is not revealed to them by a revocation.
    const lou = await newUser(t, "qlou");
    const hidden = (await quote(lou, original.id, { status: "lou's secret words" })).body;
    await block(t, lou, alice);
    const refused = await post(t, `/api/v1/statuses/${original.id}/quotes/${hidden.id}/revoke`, alice.token);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).not.toContain("secret");
  });

  test("PUT /interaction_policy: only the author; a private status keeps nobody", async () => {
    const original = await postStatus(t, alice, { status: "policy", quote_approval_policy: "public" });
    const put = (user: User, id: string, json: unknown) => call(t, "PUT", `/api/v1/statuses/${id}/interaction_policy`, user.token, json);
    expect((await put(bob, original.id, { quote_approval_policy: "nobody" })).status).toBe(403);
    const res = await put(alice, original.id, { quote_approval_policy: "nobody" });
    expect(res.body.quote_approval).toEqual({ automatic: [], manual: [], current_user: "automatic" });
    expect(await quote(bob, original.id)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await put(alice, original.id, { quote_approval_policy: "all" })).status).toBe(422);
    const priv = await postStatus(t, alice, { status: "private", visibility: "private" });
    expect((await put(alice, priv.id, { quote_approval_policy: "public" })).body.quote_approval.automatic).toEqual([]);
  });

  test("PUT /statuses/:id: quote_approval_policy alone is no edit; an edit keeps the quote, its count and a blank text", async () => {
    const original = await postStatus(t, alice, { status: "edited later", quote_approval_policy: "public" });
    const edit = (user: User, id: string, json: unknown) => call(t, "PUT", `/api/v1/statuses/${id}`, user.token, json);
    const policyOnly = await edit(alice, original.id, { quote_approval_policy: "followers" });
    expect(policyOnly.body).toMatchObject({ edited_at: null, quote_approval: { automatic: ["followers"] } });
    const q = (await quote(alice, original.id, { status: "with words" })).body;
    const blanked = await edit(alice, q.id, { status: "" });
    expect(blanked.status).toBe(200);
    expect(blanked.body).toMatchObject({ quote: { state: "accepted", quoted_status: { id: original.id } } });
    expect(blanked.body.content).toMatch(/^<p class="quote-inline">RE: <a [^>]+>.*<\/a><\/p>$/);
    const edited = await edit(alice, original.id, { status: "edited now", quote_approval_policy: "nobody" });
    expect(edited.body).toMatchObject({ quotes_count: 1, quote_approval: { automatic: [] } });
    expect(edited.body.edited_at).not.toBeNull();
  });

  test("source[quote_policy]: stored, echoed, the default of new posts; anything else 422", async () => {
    const kim = await newUser(t, "qkim");
    const patch = (json: unknown) => call(t, "PATCH", "/api/v1/accounts/update_credentials", kim.token, json);
    expect((await patch({ source: { quote_policy: "followers" } })).body.source.quote_policy).toBe("followers");
    expect((await get(t, "/api/v1/accounts/verify_credentials", kim.token)).body.source.quote_policy).toBe("followers");
    expect((await get(t, "/api/v1/preferences", kim.token)).body["posting:default:quote_policy"]).toBe("followers");
    expect((await postStatus(t, kim, "default")).quote_approval.automatic).toEqual(["followers"]);
    expect((await patch({ source: { quote_policy: "anyone" } })).status).toBe(422);
  });
});

describe("recount", () => {
  test("warren cache recount statuses puts quotes_count back to the accepted quotes", async () => {
    const original = await postStatus(t, alice, "miscounted");
    await quote(bob, original.id);
    const revoked = (await quote(carol, original.id)).body;
    await post(t, `/api/v1/statuses/${original.id}/quotes/${revoked.id}/revoke`, alice.token);
    const { store } = t.deps;
    await store.write(() => putStatus(store, { ...getStatus(store, normaliseId(original.id)!)!, quotesCount: 7 }));
    expect((await show(alice, original.id)).quotes_count).toBe(7);
    expect((await recount(store, "statuses")).corrected).toBe(1);
    expect((await show(alice, original.id)).quotes_count).toBe(1);
  });
});

describe("quoted_update", () => {
  test("an edit of a quoted status tells each quoter once (the newest edit)", async () => {
    const original = await postStatus(t, alice, "before");
    const q = (await quote(carol, original.id)).body;
    const edit = (text: string) => call(t, "PUT", `/api/v1/statuses/${original.id}`, alice.token, { status: text });
    expect((await edit("after")).status).toBe(200);
    await t.deps.jobs.drain();
    await edit("after again");
    await t.deps.jobs.drain();
    const updates = (await notifications(carol, "quoted_update")).filter((n) => n.status?.id === original.id);
    expect(updates.length).toBe(1);
    expect(updates[0]).toMatchObject({ account: { id: alice.id }, status: { content: "<p>after again</p>" } });
    expect((await notifications(bob, "quoted_update")).filter((n) => n.status?.id === original.id)).toEqual([]);
    expect((await show(carol, q.id)).quote.quoted_status.content).toBe("<p>after again</p>");
  });

  test("never held back by the quoter's notification policy (Mastodon's unfilterable types)", async () => {
    const dave = await newUser(t, "qpolicy");
    const original = await postStatus(t, alice, "policy proof");
    await quote(dave, original.id);
    expect((await call(t, "PATCH", "/api/v2/notifications/policy", dave.token, { for_not_following: "filter" })).status).toBe(200);
    expect((await call(t, "PUT", `/api/v1/statuses/${original.id}`, alice.token, { status: "policy proof, edited" })).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await notifications(dave, "quoted_update")).filter((n) => n.status?.id === original.id).length).toBe(1);
  });
});

describe("masto.js", () => {
  test("quotes through the client library behind Elk and Phanpy: create, read back, list the quotes", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => t.app.handle(request) });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const [asAlice, asBob] = [alice, bob].map((user) => createRestAPIClient({ url, accessToken: user.token }));
      const original = await asAlice!.v1.statuses.create({ status: "via masto", quoteApprovalPolicy: "public" });
      expect(original.quoteApproval).toEqual({ automatic: ["public"], manual: [], currentUser: "automatic" });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await asBob!.v1.statuses.create({ status: `quote ${i}`, quotedStatusId: original.id })).id);
      const quoting = await asBob!.v1.statuses.$select(ids[0]!).fetch();
      expect(quoting.quote).toMatchObject({ state: "accepted", quotedStatus: { id: original.id } });
      const pages: string[][] = [];
      for await (const page of asAlice!.v1.statuses.$select(original.id).quotes.list()) pages.push(page.map((s) => s.id));
      expect(pages).toEqual([[...ids].reverse()]);
      // Any reader of the status may list them, as on Mastodon 4.6 (masto.js's own suite does so as the quoter).
      const asQuoter: string[][] = [];
      for await (const page of asBob!.v1.statuses.$select(original.id).quotes.list()) asQuoter.push(page.map((s) => s.id));
      expect(asQuoter).toEqual([[...ids].reverse()]);
    } finally {
      server.stop(true);
    }
  });
});
