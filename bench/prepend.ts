// In process (app.handle, no network): the newest home page of 20 after one new status in the feed, taken in
// by the kept page (prepend) against built (a URL asked for the first time). Each repetition posts one
// status (through the store, as the inbox stores one, fanned out at once), then times the reads. Issue 29, docs/benchmarks.md.
//   bun bench/prepend.ts [--repeats=300]
import { startTestApp } from "../tests/helpers/app.ts";
import { followRemote, get, newUser, remoteAccount, remoteStatus } from "../tests/http/timelines-helpers.ts";

const repeats = Number(process.argv.find((a) => a.startsWith("--repeats="))?.slice(10) ?? 300);
const t = await startTestApp({ NODE_ENV: "production", WARREN_CHECK_RESPONSES: "off", WARREN_CACHE_STATUS_HEADER: "on" });
// Two readers of the same author: one keeps its top page, the other builds it; which reads first alternates.
const reader = await newUser(t, "pb");
const other = await newUser(t, "pb");
const author = await remoteAccount(t, "pbauthor");
await followRemote(t, reader, author);
await followRemote(t, other, author);
for (let i = 0; i < 40; i++) await remoteStatus(t, author);
const HOME = "/api/v1/timelines/home";
for (let i = 0; i < 3; i++) await get(t, HOME, reader.token);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kept: number[] = [];
const built: number[] = [];
const answers = new Map<string, number>();
for (let n = 0; n < repeats; n++) {
  await remoteStatus(t, author);
  const readKept = async () => {
    const started = performance.now();
    const res = await get(t, HOME, reader.token);
    kept.push(performance.now() - started);
    const how = res.headers.get("x-warren-cache")!;
    answers.set(how, (answers.get(how) ?? 0) + 1);
  };
  const readBuilt = async () => {
    const started = performance.now();
    await get(t, `${HOME}?n=${n}`, other.token);
    built.push(performance.now() - started);
  };
  if (n % 2) await readKept().then(readBuilt);
  else await readBuilt().then(readKept);
}
console.log(`kept top page after one new status: median ${(median(kept) * 1000).toFixed(0)} µs (${[...answers].map(([k, v]) => `${k} ${v}`).join(", ")})`);
console.log(`built (new URL each time):           median ${(median(built) * 1000).toFixed(0)} µs`);
await t.close();
