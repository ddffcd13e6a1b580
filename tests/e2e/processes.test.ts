// WARREN_PROCESSES=2: a real `warren serve` supervising two server processes on one temp data directory and
// one port (docs/scaling.md). Each answer names its process (WARREN_PROCESS_HEADER), and every request here
// opens its own connection, so the kernel shares them out between the two listeners.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchClient, type User } from "../../bench/lib/client.ts";
import { startWarren, type Warren } from "../../bench/lib/servers.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectionTo } from "../../bench/lib/pinned.ts";
import { openSse, openWebSocket, type SseClient } from "../helpers/streaming.ts";

setDefaultTimeout(60_000);

let dir: string;
let warren: Warren;
let alice: User;
let bob: User;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-processes-"));
  warren = await startWarren({
    dataDir: dir,
    env: { WARREN_PROCESSES: "2", WARREN_PROCESS_HEADER: "on", WARREN_RATE_LIMITS: "on", WARREN_RATE_LIMIT_FACTOR: "100", WARREN_JOB_WORKERS: "1" },
  });
  const client = new BenchClient(warren);
  alice = await client.user("alice");
  bob = await client.user("bob");
});

afterAll(async () => {
  await warren.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One request on a connection of its own; the answer with the pid of the process that gave it. */
async function call(path: string, init: { token?: string; method?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { connection: "close", ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(warren.url + path, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    keepalive: false,
  });
  const body = await res.text();
  const json = res.headers.get("content-type")?.startsWith("application/json");
  return { status: res.status, pid: Number(res.headers.get("x-warren-pid")), headers: res.headers, body: json ? JSON.parse(body) : body };
}

const port = () => Number(new URL(warren.url).port);

async function serverPids(): Promise<Set<number>> {
  const pids = new Set<number>();
  await eventually(async () => (pids.add((await call("/api/v1/instance")).pid), pids.size >= 2), { what: "both processes answering" });
  return pids;
}

function migratesQueuedConnections(): boolean {
  try {
    return readFileSync("/proc/sys/net/ipv4/tcp_migrate_req", "utf8").trim() === "1";
  } catch {
    return false;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("connections are shared out between the two processes", async () => {
  const pids = await serverPids();
  expect(pids.size).toBe(2);
  expect(pids.has(warren.pid)).toBe(false);
});

test("what one process writes, the other reads at once (its caches see the other's commits)", async () => {
  const [first, second] = [...(await serverPids())];
  const to = { [first!]: await connectionTo(port(), first!), [second!]: await connectionTo(port(), second!) };
  try {
    for (const [writer, reader] of [[first!, second!], [second!, first!]] as const) {
      // The reader has the account in its caches before the write.
      const before = await to[reader]!.request("GET", "/api/v1/accounts/verify_credentials", { token: alice.token });
      const name = `Alice via ${writer}`;
      expect(before.json().display_name).not.toBe(name);
      const written = await to[writer]!.request("PATCH", "/api/v1/accounts/update_credentials", { token: alice.token, json: { display_name: name } });
      expect(written.status).toBe(200);
      const read = await to[reader]!.request("GET", "/api/v1/accounts/verify_credentials", { token: alice.token });
      expect(read.json().display_name).toBe(name);
      const account = await to[reader]!.request("GET", `/api/v1/accounts/${read.json().id}`);
      expect(account.json().display_name).toBe(name);
    }
  } finally {
    for (const connection of Object.values(to)) connection.close();
  }
});

test("a favourite and a new status written through one process show in the other's cached answers at once", async () => {
  const [first, second] = [...(await serverPids())];
  const writer = await connectionTo(port(), first!);
  const reader = await connectionTo(port(), second!);
  try {
    const posted = (await writer.request("POST", "/api/v1/statuses", { token: bob.token, json: { status: "cache me", visibility: "public" } })).json();
    // Rendered and cached by the reader before the writes.
    expect((await reader.request("GET", `/api/v1/statuses/${posted.id}`, { token: alice.token })).json().favourites_count).toBe(0);
    expect((await reader.request("GET", "/api/v1/timelines/public?local=true", { token: alice.token })).json()[0].id).toBe(posted.id);
    expect((await writer.request("POST", `/api/v1/statuses/${posted.id}/favourite`, { token: alice.token })).status).toBe(200);
    const next = (await writer.request("POST", "/api/v1/statuses", { token: bob.token, json: { status: "newer", visibility: "public" } })).json();
    const after = (await reader.request("GET", `/api/v1/statuses/${posted.id}`, { token: alice.token })).json();
    expect([after.favourites_count, after.favourited]).toEqual([1, true]);
    const timeline = (await reader.request("GET", "/api/v1/timelines/public?local=true", { token: alice.token })).json();
    expect(timeline.map((status: { id: string }) => status.id).slice(0, 2)).toEqual([next.id, posted.id]);
  } finally {
    writer.close();
    reader.close();
  }
});

test("a status posted through one process reaches the streams connected to every process", async () => {
  // Event streams until one is open on each process (a WebSocket's upgrade answer shows no header to a client).
  const byPid = new Map<number, SseClient>();
  const extra: SseClient[] = [];
  while (byPid.size < 2) {
    const sse = await openSse(warren.url, "/api/v1/streaming/public", alice.token);
    const pid = Number(sse.response.headers.get("x-warren-pid"));
    if (byPid.has(pid)) extra.push(sse);
    else byPid.set(pid, sse);
  }
  const sockets = await Promise.all(Array.from({ length: 6 }, () => openWebSocket(warren.url, `?stream=public&access_token=${alice.token}`)));
  await Promise.all(sockets.map((socket) => socket.synced()));
  try {
    for (const poster of byPid.keys()) {
      const connection = await connectionTo(port(), poster);
      const posted = await connection.request("POST", "/api/v1/statuses", { token: bob.token, json: { status: `from ${poster}`, visibility: "public" } });
      connection.close();
      expect(posted.status).toBe(200);
      const id = posted.json().id;
      for (const sse of byPid.values()) await eventually(() => sse.updates().includes(id), { what: "the status on an event stream" });
      for (const socket of sockets) await eventually(() => socket.updateIds().includes(id), { what: "the status on a WebSocket" });
    }
  } finally {
    for (const sse of [...byPid.values(), ...extra]) sse.close();
    for (const socket of sockets) socket.close();
  }
});

test("the busy rate limits count every process's requests in one budget, synced within moments", async () => {
  const headers = { "x-forwarded-for": "203.0.113.30" };
  let sent = 0;
  const pids = new Set<number>();
  const probe = async () => {
    const answer = await call("/api/v1/instance", { headers });
    sent++;
    pids.add(answer.pid);
    return Number(answer.headers.get("x-ratelimit-remaining"));
  };
  const allowed = (await probe()) + 1;
  for (let i = 0; i < 11; i++) await probe();
  expect(pids.size).toBe(2);
  // Counted apart, each process would stay about half the requests behind; shared, the count catches up with
  // every request sent, whichever process answers.
  await eventually(async () => (await probe()) === allowed - sent, { what: "one count of every request" });
  await eventually(async () => (await probe()) === allowed - sent, { what: "one count, again" });
});

test("the sign-in rate limits are counted exactly across processes, request by request", async () => {
  const seen: { pid: number; remaining: number }[] = [];
  for (let i = 0; i < 10; i++) {
    const answer = await call("/oauth/token", {
      headers: { "x-forwarded-for": "203.0.113.31" },
      json: { grant_type: "password", client_id: "nobody", client_secret: "nothing", username: "guess@example.com", password: `guess${i}` },
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    seen.push({ pid: answer.pid, remaining: Number(answer.headers.get("x-ratelimit-remaining")) });
  }
  expect(new Set(seen.map((s) => s.pid)).size).toBe(2);
  for (let i = 1; i < seen.length; i++) expect(seen[i]!.remaining).toBe(seen[i - 1]!.remaining - 1);
});

test("/metrics, whichever process answers, shows every process's series labelled by process", async () => {
  const answering = new Set<number>();
  while (answering.size < 2) {
    const res = await fetch(`${warren.url}/metrics`, { headers: { connection: "close" }, keepalive: false });
    const text = await res.text();
    expect(res.status).toBe(200);
    answering.add(Number(res.headers.get("x-warren-pid")));
    for (const index of ["0", "1"]) {
      expect(text).toMatch(new RegExp(`^process_cpu_seconds_total\\{process="${index}"\\} [0-9.e+-]+$`, "m"));
      expect(text).toMatch(new RegExp(`^process_resident_memory_bytes\\{process="${index}"\\} `, "m"));
    }
    // Read from the shared data: once, unlabelled.
    expect(text.match(/^warren_lmdb_readers /gm)).toHaveLength(1);
    expect(text.match(/^# TYPE process_cpu_seconds_total /gm)).toHaveLength(1);
  }
});

/** Requests one after another, each on a new connection, until stopped: how many failed or were refused. */
function requestLoop() {
  let running = true;
  const failures: string[] = [];
  const pids = new Set<number>();
  let answered = 0;
  const done = (async () => {
    while (running) {
      try {
        const answer = await call("/api/v1/accounts/verify_credentials", { token: alice.token });
        if (answer.status === 200) answered++;
        else failures.push(`status ${answer.status}`);
        pids.add(answer.pid);
      } catch (error) {
        failures.push(String(error));
      }
    }
  })();
  return {
    failures,
    pids,
    answered: () => answered,
    async stop() {
      running = false;
      await done;
    },
  };
}

test("a process killed with SIGKILL is started again, and requests keep being answered", async () => {
  const before = await serverPids();
  const victim = [...before][0]!;
  process.kill(victim, "SIGKILL");
  await eventually(() => !alive(victim), { what: "the process gone" });
  // From here (a request in flight on the killed process dies with it): before its replacement listens, too.
  const loop = requestLoop();
  const replaced = await eventually(async () => {
    const pids = await serverPids();
    return !pids.has(victim) && pids.size === 2 ? pids : undefined;
  }, { what: "a new process in its place" });
  await loop.stop();
  expect(replaced.size).toBe(2);
  expect(loop.answered()).toBeGreaterThan(0);
  expect(loop.failures).toEqual([]);
});

test("`warren restart` replaces both processes one by one without refusing a request", async () => {
  const before = await serverPids();
  // Open streams end with their process, rather than hold its drain open until it is killed (after 30 s).
  const streams = await Promise.all([1, 2, 3].map(() => openSse(warren.url, "/api/v1/streaming/public", alice.token)));
  const loop = requestLoop();
  await eventually(() => loop.answered() >= 5, { what: "requests answered before the restart" });
  const restart = await warren.cli("restart");
  expect(restart.code).toBe(0);
  await eventually(() => [...before].every((pid) => !alive(pid)), { what: "the old processes gone", timeoutMs: 15_000 });
  // The end of a stream is read by this process a moment after its server process is gone.
  await eventually(() => streams.every((stream) => stream.ended), { what: "the streams of the old processes ended" });
  const after = await serverPids();
  const answeredBefore = loop.answered();
  await eventually(() => loop.answered() >= answeredBefore + 5, { what: "requests answered by the new processes" });
  await loop.stop();
  expect([...after].some((pid) => before.has(pid))).toBe(false);
  expect(loop.answered()).toBeGreaterThan(10);
  // The port always had a listener: nothing refused, and every answer a 200.
  expect(loop.failures.filter((failure) => !failure.includes("ECONNRESET"))).toEqual([]);
  // A connection the kernel had queued on a listener as it closed is reset, unless the kernel moves it to
  // another listener of the port (Linux ≥ 5.14, net.ipv4.tcp_migrate_req=1; docs/scaling.md).
  if (migratesQueuedConnections()) expect(loop.failures).toEqual([]);
  else expect(loop.failures.length).toBeLessThanOrEqual(before.size);
});

test("SIGTERM lets requests in flight finish, then stops every process and removes the pid file", async () => {
  const pids = await serverPids();
  expect(existsSync(join(dir, "warren.pid"))).toBe(true);
  const inFlight = Array.from({ length: 8 }, () => call("/api/v1/timelines/home", { token: alice.token }));
  // Kept: a moment for the requests to reach the server before the signal, which no answer can show yet.
  await Bun.sleep(5);
  process.kill(warren.pid, "SIGTERM");
  const answers = await Promise.allSettled(inFlight);
  // Sent before the signal: answered, none cut off (a request that found no listener any more would be refused).
  expect(answers.map((answer) => (answer.status === "fulfilled" ? answer.value.status : String(answer.reason)))).toEqual(Array(8).fill(200));
  await eventually(() => !alive(warren.pid) && [...pids].every((pid) => !alive(pid)), { what: "every process stopped" });
  expect(existsSync(join(dir, "warren.pid"))).toBe(false);
  // Nothing to restart any more.
  const restart = await warren.cli("restart");
  expect([restart.code, restart.stderr]).toEqual([1, expect.stringContaining("no supervised warren serves")]);
});

test("when the supervisor is killed, its processes stop too; a stale pid file does not block the next start", async () => {
  const other = await startWarren({ dataDir: dir, env: { WARREN_PROCESSES: "2", WARREN_PROCESS_HEADER: "on", WARREN_JOB_WORKERS: "1" } });
  try {
    const pids = new Set<number>();
    await eventually(async () => {
      const res = await fetch(`${other.url}/api/v1/instance`, { headers: { connection: "close" }, keepalive: false });
      await res.arrayBuffer();
      pids.add(Number(res.headers.get("x-warren-pid")));
      return pids.size === 2;
    }, { what: "both processes answering" });
    process.kill(other.pid, "SIGKILL");
    await eventually(() => [...pids].every((pid) => !alive(pid)), { what: "the orphaned processes stopped" });
    expect(existsSync(join(dir, "warren.pid"))).toBe(true);
  } finally {
    await other.stop();
  }
  // The pid file names a dead process: a new supervisor starts.
  const again = await startWarren({ dataDir: dir, env: { WARREN_PROCESSES: "2", WARREN_JOB_WORKERS: "1" } });
  await again.stop();
});
