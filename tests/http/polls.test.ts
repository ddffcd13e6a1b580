// Polls: poll[…] on POST /api/v1/statuses (JSON and form), the Poll in Status.poll with the viewer's votes,
// GET /api/v1/polls/:id, POST /api/v1/polls/:id/votes, and the end of a poll (the delayed polls.expire job,
// run by moving the clock with setSystemTime and draining the queue).
import { eventually } from "../helpers/eventually.ts";
import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  [alice, bob, carol] = await Promise.all([newUser(t, "alice"), newUser(t, "bob"), newUser(t, "carol")]);
}, 60_000);
afterAll(() => t.close());
afterEach(() => setSystemTime());

const POLL_KEYS = ["id", "expires_at", "expired", "multiple", "votes_count", "voters_count", "options", "emojis"];
const vote = (user: User, pollId: string, choices: unknown) => post(t, `/api/v1/polls/${pollId}/votes`, user.token, { choices });
const poll = (options: unknown, extra: Record<string, unknown> = {}) => ({ status: "which?", poll: { options, expires_in: 3600, ...extra } });

describe("posting a poll", () => {
  test("JSON: the Poll is in the status, with the viewer's votes for signed-in viewers only", async () => {
    const before = Date.now();
    const status = await postStatus(t, alice, poll(["tea", "coffee"]));
    expect(Object.keys(status.poll)).toEqual([...POLL_KEYS, "voted", "own_votes"]);
    expect(status.poll).toMatchObject({ id: status.id, expired: false, multiple: false, votes_count: 0, voters_count: 0, emojis: [] });
    expect(status.poll.options).toEqual([{ title: "tea", votes_count: 0 }, { title: "coffee", votes_count: 0 }]);
    // The author counts as having voted (Mastodon's Poll#voted?), so clients show the results.
    expect(status.poll.voted).toBe(true);
    expect(status.poll.own_votes).toEqual([]);
    const expiresAt = Date.parse(status.poll.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expiresAt).toBeLessThan(Date.now() + 3_600_000 + 1);

    const anonymous = await get(t, `/api/v1/statuses/${status.id}`);
    expect(Object.keys(anonymous.body.poll)).toEqual(POLL_KEYS);
    const asBob = await get(t, `/api/v1/statuses/${status.id}`, bob.token);
    expect(asBob.body.poll).toMatchObject({ voted: false, own_votes: [] });
  });

  test("form-encoded, as most clients send it, with multiple and hide_totals; text may be blank", async () => {
    const res = await t.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      body: "status=&poll[options][]=a&poll[options][]=b&poll[options][]=c&poll[expires_in]=300&poll[multiple]=true&poll[hide_totals]=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.content).toBe("");
    expect(body.poll.multiple).toBe(true);
    expect(body.poll.options).toEqual([{ title: "a", votes_count: null }, { title: "b", votes_count: null }, { title: "c", votes_count: null }]);
  });

  test("the limits the instance reports are enforced (422) and nothing is posted", async () => {
    const instance = (await get(t, "/api/v2/instance")).body.configuration.polls;
    const countBefore = (await get(t, "/api/v1/accounts/verify_credentials", alice.token)).body.statuses_count;
    const tooMany = Array.from({ length: instance.max_options + 1 }, (_, i) => `o${i}`);
    const cases: unknown[] = [
      poll(["only"]),
      poll([]),
      poll(tooMany),
      poll(["x".repeat(instance.max_characters_per_option + 1), "y"]),
      poll(["same", "same"]),
      poll(["a", "  "]),
      poll(["a", "b"], { expires_in: instance.min_expiration - 1 }),
      poll(["a", "b"], { expires_in: instance.max_expiration + 1 }),
      poll(["a", "b"], { expires_in: "soon" }),
      poll(["a", "b"], { expires_in: 1e300 }),
      poll(["a", "b"], { expires_in: 600.5 }),
      { status: "x", poll: { options: ["a", "b"] } },
      { status: "x", media_ids: ["1"], poll: { options: ["a", "b"], expires_in: 600 } },
      { status: "x", poll: { options: Array.from({ length: 5000 }, (_, i) => `${i}`), expires_in: 600 } },
    ];
    for (const json of cases) {
      const res = await post(t, "/api/v1/statuses", alice.token, json);
      expect({ json, status: res.status }).toEqual({ json, status: 422 });
      expect(typeof res.body.error).toBe("string");
    }
    expect((await post(t, "/api/v1/statuses", alice.token, poll(["a", "b"], { expires_in: instance.max_expiration }))).status).toBe(200);
    const exact = ["é".repeat(instance.max_characters_per_option), "b"];
    expect((await post(t, "/api/v1/statuses", alice.token, poll(exact, { expires_in: String(instance.min_expiration) }))).status).toBe(200);
    const countAfter = (await get(t, "/api/v1/accounts/verify_credentials", alice.token)).body.statuses_count;
    expect(countAfter).toBe(countBefore + 2);
  });
});

describe("reading and voting", () => {
  test("GET /api/v1/polls/:id follows the status's visibility", async () => {
    const dave = await newUser(t, "dave");
    await follow(t, bob, dave);
    const status = await postStatus(t, dave, { ...poll(["a", "b"]), visibility: "private" });
    expect((await get(t, `/api/v1/polls/${status.id}`, bob.token)).status).toBe(200);
    expect((await get(t, `/api/v1/polls/${status.id}`, carol.token)).status).toBe(404);
    expect((await get(t, `/api/v1/polls/${status.id}`)).status).toBe(404);
    expect((await vote(carol, status.id, ["0"])).status).toBe(404);
    const plain = await postStatus(t, dave, "no poll here");
    for (const id of [plain.id, "999999999999999999", "nope", "__proto__"]) expect((await get(t, `/api/v1/polls/${id}`, bob.token)).status).toBe(404);
  });

  test("a single-choice vote counts once; voting again, several choices and unknown options are 422", async () => {
    const status = await postStatus(t, alice, poll(["a", "b", "c"]));
    for (const choices of [["0", "1"], ["3"], ["-1"], ["x"], [], ["1e0"], [" "], Array.from({ length: 1000 }, () => "0")]) {
      const res = await vote(bob, status.id, choices);
      expect({ choices: choices.slice(0, 3), status: res.status }).toEqual({ choices: choices.slice(0, 3), status: 422 });
    }
    const res = await vote(bob, status.id, ["1"]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ votes_count: 1, voters_count: 1, voted: true, own_votes: [1] });
    expect(res.body.options.map((o: any) => o.votes_count)).toEqual([0, 1, 0]);
    expect((await vote(bob, status.id, ["0"])).body).toEqual({ error: "Validation failed: You have already voted on this poll" });
    // The vote shows at once wherever the status does, for the voter and for others.
    expect((await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body.poll).toMatchObject({ voted: true, own_votes: [1], votes_count: 1 });
    expect((await get(t, `/api/v1/statuses/${status.id}`, carol.token)).body.poll).toMatchObject({ voted: false, own_votes: [], votes_count: 1 });
    expect((await get(t, `/api/v1/polls/${status.id}`)).body.options[1].votes_count).toBe(1);
  });

  test("a multiple-choice poll takes several choices (repeats count once); form bodies send choices[]", async () => {
    const status = await postStatus(t, alice, poll(["a", "b", "c"], { multiple: true }));
    const res = await t.request(`/api/v1/polls/${status.id}/votes`, {
      method: "POST",
      token: carol.token,
      body: "choices[]=2&choices[]=0&choices[]=2",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ votes_count: 2, voters_count: 1, own_votes: [0, 2] });
  });

  test("a multiple-choice poll takes later votes for new choices (Mastodon.py test_polls); a choice taken is 422", async () => {
    const status = await postStatus(t, alice, poll(["four twenty", "sixty-nine", "other"], { multiple: true }));
    expect((await vote(bob, status.id, ["1"])).body).toMatchObject({ votes_count: 1, voters_count: 1, own_votes: [1] });
    expect((await vote(bob, status.id, ["0"])).body).toMatchObject({ votes_count: 2, voters_count: 1, own_votes: [1, 0] });
    const again = await vote(bob, status.id, ["2", "1"]);
    expect(again).toMatchObject({ status: 422, body: { error: "Validation failed: You have already voted on this poll" } });
    expect((await get(t, `/api/v1/polls/${status.id}`, bob.token)).body).toMatchObject({ votes_count: 2, own_votes: [1, 0] });
  });

  test("blocked either way: 403 (or 404 when the block hides the status)", async () => {
    const erin = await newUser(t, "erin");
    const status = await postStatus(t, erin, poll(["a", "b"]));
    expect((await post(t, `/api/v1/accounts/${bob.id}/block`, erin.token)).status).toBe(200);
    expect([403, 404]).toContain((await vote(bob, status.id, ["0"])).status);
    expect((await get(t, `/api/v1/polls/${status.id}`, erin.token)).body.votes_count).toBe(0);
  });

  test("a reblogged poll shows each viewer's votes inside the reblog, in lists rendered from kept parts", async () => {
    const status = await postStatus(t, alice, poll(["a", "b"]));
    expect((await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).status).toBe(200);
    expect((await vote(carol, status.id, ["1"])).status).toBe(200);
    const list = (user?: User) => get(t, `/api/v1/accounts/${bob.id}/statuses?limit=1`, user?.token);
    // Twice each: the second page is joined from the kept parts (and compared with fresh objects under tests).
    for (let i = 0; i < 2; i++) {
      expect((await list(carol)).body[0].reblog.poll).toMatchObject({ voted: true, own_votes: [1], votes_count: 1 });
      expect((await list(bob)).body[0].reblog.poll).toMatchObject({ voted: false, own_votes: [], votes_count: 1 });
      expect(Object.keys((await list()).body[0].reblog.poll)).toEqual(POLL_KEYS);
    }
  });

  test("concurrent votes are all counted", async () => {
    const status = await postStatus(t, alice, poll(["a", "b"]));
    const voters = await Promise.all(Array.from({ length: 8 }, (_, i) => newUser(t, `voter${i}`)));
    const answers = await Promise.all(voters.map((voter, i) => vote(voter, status.id, [String(i % 2)])));
    expect(answers.map((a) => a.status)).toEqual(voters.map(() => 200));
    // The same voter racing with itself counts once.
    const twice = await Promise.all([vote(bob, status.id, ["0"]), vote(bob, status.id, ["1"])]);
    expect(twice.map((a) => a.status).sort()).toEqual([200, 422]);
    const res = await get(t, `/api/v1/polls/${status.id}`);
    expect(res.body).toMatchObject({ votes_count: 9, voters_count: 9 });
    expect(res.body.options[0].votes_count + res.body.options[1].votes_count).toBe(9);
  });

  test("an app token cannot vote; a token without write:statuses is refused", async () => {
    const status = await postStatus(t, alice, poll(["a", "b"]));
    const reader = await newUser(t, "reader", "read");
    expect((await vote(reader, status.id, ["0"])).status).toBe(403);
    expect((await call(t, "POST", `/api/v1/polls/${status.id}/votes`, undefined, { choices: ["0"] })).status).toBe(401);
  });
});

describe("the end of a poll", () => {
  test("the delayed job ends it: totals shown, votes refused, voters and the author notified once", async () => {
    const status = await postStatus(t, alice, poll(["a", "b"], { expires_in: 300, hide_totals: true }));
    expect((await vote(bob, status.id, ["0"])).status).toBe(200);
    expect((await get(t, `/api/v1/polls/${status.id}`)).body.options[0].votes_count).toBeNull();
    // The author's timeline renders the poll (rendered-status cache) before the end…
    const page = await get(t, `/api/v1/accounts/${alice.id}/statuses?limit=1`, bob.token);
    expect(page.body[0].poll).toMatchObject({ expired: false, voted: true, own_votes: [0] });

    setSystemTime(new Date(Date.now() + 301_000));
    await t.deps.jobs.drain();
    const ended = await get(t, `/api/v1/polls/${status.id}`, bob.token);
    expect(ended.body).toMatchObject({ expired: true, voted: true, own_votes: [0] });
    expect(ended.body.options).toEqual([{ title: "a", votes_count: 1 }, { title: "b", votes_count: 0 }]);
    // …and after it, without anything else written.
    const after = await get(t, `/api/v1/accounts/${alice.id}/statuses?limit=1`, bob.token);
    expect(after.body[0].poll.expired).toBe(true);
    expect((await vote(carol, status.id, ["1"])).body).toEqual({ error: "Validation failed: The poll has already ended" });

    for (const user of [alice, bob]) {
      // The expiry job may still be running on a worker thread when drain() returns (it waits for due jobs,
      // and the fake clock only moves this thread's time).
      const forPoll = await eventually(async () => {
        const notes = await get(t, "/api/v1/notifications?types[]=poll", user.token);
        const found = notes.body.filter((n: any) => n.status?.id === status.id);
        return found.length > 0 && found;
      });
      expect(forPoll.length).toBe(1);
      expect(forPoll[0].account.id).toBe(alice.id);
    }
    const carolNotes = await get(t, "/api/v1/notifications?types[]=poll", carol.token);
    expect(carolNotes.body.filter((n: any) => n.status?.id === status.id)).toEqual([]);
  });

  test("a deleted status's poll is gone", async () => {
    const status = await postStatus(t, alice, poll(["a", "b"]));
    const deleted = await call(t, "DELETE", `/api/v1/statuses/${status.id}`, alice.token);
    expect(deleted.body.poll.options.map((o: any) => o.title)).toEqual(["a", "b"]);
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/polls/${status.id}`, alice.token)).status).toBe(404);
    expect((await vote(bob, status.id, ["0"])).status).toBe(404);
  });
});
