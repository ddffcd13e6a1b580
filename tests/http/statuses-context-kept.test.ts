// Kept thread answers (http/cache/thread-answers.ts): a context asked again is answered before routing while
// nothing it shows has changed, and built again (or rendered again, when only an author changed) after any
// change to the thread: a reply anywhere in the tree, a deletion, an edit, the viewer's block, mute or follow,
// an author's profile, and a write by another process (the CLI) through the version log.
// X-Warren-Cache (WARREN_CACHE_STATUS_HEADER) tells kept answers from built ones.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { block, call, follow, get, mute, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;
let reader: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_CACHE_STATUS_HEADER: "on" });
  [alice, bob, reader] = await Promise.all([newUser(t, "ka"), newUser(t, "kb"), newUser(t, "kr")]);
});
afterAll(() => t.close());

const ids = (list: { id: string }[]) => list.map((s) => s.id);
const contextPath = (id: string) => `/api/v1/statuses/${id}/context`;

/** A thread root ─ a ─ deep, and b, all by alice unless said otherwise. */
async function thread() {
  const root = await postStatus(t, alice, "root");
  const a = await postStatus(t, bob, { status: "a", in_reply_to_id: root.id });
  const deep = await postStatus(t, alice, { status: "deep", in_reply_to_id: a.id });
  const b = await postStatus(t, alice, { status: "b", in_reply_to_id: root.id });
  await t.deps.jobs.drain();
  return { root, a, deep, b };
}

/** Asks until the answer is kept (a request is kept once asked before), and returns it. */
async function kept(path: string, token?: string) {
  for (let asked = 0; asked < 3; asked++) {
    const answer = await get(t, path, token);
    expect(answer.status).toBe(200);
    if (answer.headers.get("x-warren-cache") === "hit") return answer;
  }
  throw new Error(`${path} was not kept`);
}

/** The next answer after `change` (and its jobs), answered as `answered`. */
async function readAfter(path: string, token: string | undefined, change: () => Promise<unknown>, answered: "miss" | "rendered" = "miss") {
  const before = await kept(path, token);
  await change();
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  expect(res.headers.get("x-warren-cache")).toBe(answered);
  return { before, after: res };
}

describe("a kept thread", () => {
  test("is the same answer, headers included, for a signed-in and an anonymous reader", async () => {
    const { root, a, deep, b } = await thread();
    for (const token of [reader.token, undefined]) {
      const first = await get(t, contextPath(root.id), token);
      const again = await kept(contextPath(root.id), token);
      expect(again.body).toEqual(first.body);
      expect(ids(again.body.descendants)).toEqual([a.id, deep.id, b.id]);
      for (const name of ["cache-control", "vary", "content-type"]) expect([name, again.headers.get(name)]).toEqual([name, first.headers.get(name)]);
    }
  });

  test("a reply deep in the tree, and the ancestors of a reply", async () => {
    const { root, a, deep, b } = await thread();
    const { after } = await readAfter(contextPath(root.id), reader.token, () => postStatus(t, bob, { status: "deeper", in_reply_to_id: deep.id }));
    expect(after.body.descendants.map((s: { content: string }) => s.content)).toEqual(["<p>a</p>", "<p>deep</p>", "<p>deeper</p>", "<p>b</p>"]);
    const upward = await readAfter(contextPath(deep.id), reader.token, () => postStatus(t, alice, { status: "a2", in_reply_to_id: a.id }));
    expect(ids(upward.after.body.ancestors)).toEqual([root.id, a.id]);
    expect(ids((await get(t, contextPath(b.id), reader.token)).body.ancestors)).toEqual([root.id]);
  });

  test("a direct reply to the root, read by someone who never read the thread (the kept thread shape)", async () => {
    const { root, a, deep, b } = await thread();
    await kept(contextPath(root.id), reader.token);
    const direct = await postStatus(t, bob, { status: "direct", in_reply_to_id: root.id });
    const newcomer = await newUser(t, "kn");
    expect(ids((await get(t, contextPath(root.id), newcomer.token)).body.descendants)).toEqual([a.id, deep.id, b.id, direct.id]);
    expect(ids((await get(t, contextPath(root.id), reader.token)).body.descendants)).toEqual([a.id, deep.id, b.id, direct.id]);
  });

  test("a deleted reply and its replies drop out", async () => {
    const { root, a, b } = await thread();
    const { after } = await readAfter(contextPath(root.id), reader.token, () => call(t, "DELETE", `/api/v1/statuses/${a.id}`, bob.token));
    expect(ids(after.body.descendants)).toEqual([b.id]);
  });

  test("an edited reply shows its new text", async () => {
    const { root, deep } = await thread();
    const edit = () => call(t, "PUT", `/api/v1/statuses/${deep.id}`, alice.token, { status: "deep, edited" });
    const { after } = await readAfter(contextPath(root.id), reader.token, edit);
    expect(after.body.descendants[1].content).toBe("<p>deep, edited</p>");
  });

  test("the reader's mute and block hide the author's replies; a follow shows a private reply", async () => {
    const viewer = await newUser(t, "kv");
    const { root, a, deep, b } = await thread();
    const secret = await postStatus(t, bob, { status: "followers only", in_reply_to_id: root.id, visibility: "private" });
    const path = contextPath(root.id);
    expect(ids((await readAfter(path, viewer.token, () => follow(t, viewer, bob))).after.body.descendants)).toEqual([a.id, deep.id, b.id, secret.id]);
    expect(ids((await readAfter(path, viewer.token, () => mute(t, viewer, bob))).after.body.descendants)).toEqual([deep.id, b.id]);
    expect(ids((await readAfter(path, viewer.token, () => block(t, viewer, alice))).after.body.descendants)).toEqual([]);
  });

  test("an author's new profile is rendered again into the kept answer", async () => {
    const author = await newUser(t, "kp");
    const root = await postStatus(t, alice, "root");
    await postStatus(t, author, { status: "reply", in_reply_to_id: root.id });
    const rename = () => t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: author.token, json: { display_name: "Renamed" } });
    const { after } = await readAfter(contextPath(root.id), reader.token, rename, "rendered");
    expect(after.body.descendants[0].account.display_name).toBe("Renamed");
  });

  test("another process's write: an author deleted by the CLI leaves the thread", async () => {
    const gone = await newUser(t, "kg");
    const { root, a, deep, b } = await thread();
    await postStatus(t, gone, { status: "soon gone", in_reply_to_id: root.id });
    const deleteByCli = async () => expect((await runWarren(t.dir, "accounts", "delete", gone.username)).code).toBe(0);
    const { before, after } = await readAfter(contextPath(root.id), reader.token, deleteByCli);
    expect(before.body.descendants).toHaveLength(4);
    expect(ids(after.body.descendants)).toEqual([a.id, deep.id, b.id]);
  });

  test("a write elsewhere (a post outside the thread, a favourite in another thread) leaves it kept", async () => {
    const { root } = await thread();
    const other = await postStatus(t, reader, "elsewhere");
    await kept(contextPath(root.id), reader.token);
    await post(t, `/api/v1/statuses/${other.id}/favourite`, bob.token);
    await postStatus(t, bob, "unrelated");
    await t.deps.jobs.drain();
    // bob's post moves bob's counters: his reply in the thread shows them, so the answer is rendered again.
    expect((await get(t, contextPath(root.id), reader.token)).headers.get("x-warren-cache")).toBe("rendered");
    await post(t, `/api/v1/statuses/${other.id}/unfavourite`, bob.token);
    await t.deps.jobs.drain();
    expect((await get(t, contextPath(root.id), reader.token)).headers.get("x-warren-cache")).toBe("hit");
  });
});
