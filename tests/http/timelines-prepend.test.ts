// A kept top page of a home whose feed only gained rows above its newest one takes them in without a build
// (http/cache/prepend.ts, X-Warren-Cache: rendered); the answer must be byte for byte what a build gives. Rows
// put in below the page's newest row (a status with an older id arriving late, as federation can), or more new
// rows than a page holds, build it again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { follow, followRemote, get, idOf, mute, newUser, postStatus, remoteAccount, remoteStatus, type User } from "./timelines-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  // A page below a max_id would be cut from a window of the feed (timelines-windows.test.ts): off, so that it is built.
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_CACHE_STATUS_HEADER: "on", WARREN_PAGE_WINDOWS: "off" });
});
afterAll(() => t.close());

const LIMIT = 5;
const TOP = `/api/v1/timelines/home?limit=${LIMIT}`;
const ids = (body: unknown) => (body as { id: string }[]).map((s) => s.id);

async function aHome(): Promise<{ reader: User; authors: User[] }> {
  const [reader, ...authors] = [await newUser(t, "pp"), await newUser(t, "pp"), await newUser(t, "pp")];
  for (const author of authors) await follow(t, reader, author);
  for (let i = 0; i < LIMIT + 2; i++) await postStatus(t, authors[i % 2]!, `older ${i}`);
  await t.deps.jobs.drain();
  return { reader, authors };
}

async function keptTop(token: string) {
  for (let asked = 0; asked < 3; asked++) if ((await get(t, TOP, token)).headers.get("x-warren-cache") === "hit") return;
  throw new Error("the top page was not kept");
}

/** The kept top page read now, and the same page built from scratch (a URL never asked before). */
async function topAndBuilt(token: string) {
  const top = await get(t, TOP, token);
  const built = await get(t, `${TOP}&max_id=99999999999999999999`, token);
  expect(built.headers.get("x-warren-cache")).toBe("miss");
  return { top, built };
}

function sameAsBuilt({ top, built }: Awaited<ReturnType<typeof topAndBuilt>>) {
  expect(JSON.stringify(top.body)).toBe(JSON.stringify(built.body));
  const [first, last] = [ids(top.body)[0], ids(top.body).at(-1)];
  expect(top.headers.get("link")).toBe(`<${t.deps.config.url}/api/v1/timelines/home?limit=${LIMIT}&max_id=${last}>; rel="next", ` +
    `<${t.deps.config.url}/api/v1/timelines/home?limit=${LIMIT}&min_id=${first}>; rel="prev"`);
}

describe("a kept top page of a home", () => {
  test("takes in new statuses (and the authors' new counters) without a build, as a build shows them", async () => {
    const { reader, authors } = await aHome();
    await keptTop(reader.token);
    for (let round = 0; round < 3; round++) {
      const fresh = [await postStatus(t, authors[0]!, `new ${round}a`), await postStatus(t, authors[1]!, `new ${round}b`)];
      await t.deps.jobs.drain();
      const answers = await topAndBuilt(reader.token);
      expect(answers.top.headers.get("x-warren-cache")).toBe("rendered");
      expect(ids(answers.top.body).slice(0, 2)).toEqual(fresh.map((s) => s.id).reverse());
      sameAsBuilt(answers);
      expect((await get(t, TOP, reader.token)).headers.get("x-warren-cache")).toBe("hit");
    }
  });

  test("new rows the reader may not see (a muted author) leave the page as it was", async () => {
    const { reader, authors } = await aHome();
    await mute(t, reader, authors[1]!);
    await keptTop(reader.token);
    const before = (await get(t, TOP, reader.token)).body;
    await postStatus(t, authors[1]!, "muted");
    await t.deps.jobs.drain();
    const answers = await topAndBuilt(reader.token);
    expect(answers.top.headers.get("x-warren-cache")).toBe("rendered");
    expect(ids(answers.top.body)).toEqual(ids(before));
    sameAsBuilt(answers);
  });

  test("more new rows than the page holds: built again", async () => {
    const { reader, authors } = await aHome();
    await keptTop(reader.token);
    for (let i = 0; i < LIMIT; i++) await postStatus(t, authors[0]!, `flood ${i}`);
    await t.deps.jobs.drain();
    const answers = await topAndBuilt(reader.token);
    expect(answers.top.headers.get("x-warren-cache")).toBe("miss");
    sameAsBuilt(answers);
  });

  test("a status with an older id arriving late, below the page's newest row: built again, and shown", async () => {
    const { reader } = await aHome();
    const remote = await remoteAccount(t, `late${Date.now()}`);
    await followRemote(t, reader, remote);
    const before = ids((await get(t, TOP, reader.token)).body);
    await keptTop(reader.token);
    // An id between the page's two newest statuses.
    const between = (BigInt(before[0]!) + BigInt(before[1]!)) / 2n;
    expect(between > BigInt(before[1]!) && between < BigInt(before[0]!)).toBe(true);
    const late = await remoteStatus(t, remote, { id: between.toString().padStart(18, "0") });
    const answers = await topAndBuilt(reader.token);
    expect(answers.top.headers.get("x-warren-cache")).toBe("miss");
    expect(ids(answers.top.body)[1]).toBe(idOf(late));
    sameAsBuilt(answers);
  });
});
