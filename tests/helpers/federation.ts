// Two (or more) Warren instances on loopback for federation tests: each has its own port, data directory and
// domain (`127.0.0.1:PORT`), plain http and private addresses allowed, job workers on. The HTTP server can be
// stopped and started again on the same port while the instance keeps running (a peer that is down).
import { expect } from "bun:test";
import { startTestApp, type TestApp } from "./app.ts";
import { CIRCUIT_PREFIX } from "../../src/federation/delivery.ts";
import { LmdbKvStore } from "../../src/federation/kv.ts";
import { FEDERATION_MESSAGE_JOB } from "../../src/domain/job-names.ts";
import { pendingJobs } from "../../src/store/jobs.ts";

export interface Instance {
  t: TestApp;
  domain: string;
  port: number;
  /** Stops listening (connections are refused) without stopping the instance. */
  down(): void;
  /** Listens again on the same port. */
  up(): void;
}

export async function startInstance(env: Record<string, string> = {}): Promise<Instance> {
  let t: TestApp | undefined;
  const serve = (port: number) =>
    Bun.serve({
      port,
      hostname: "127.0.0.1",
      fetch: (request) => (t ? t.app.handle(request) : new Response(null, { status: 503 })),
    });
  let server: ReturnType<typeof Bun.serve> | null = serve(0);
  const port = server.port!;
  const domain = `127.0.0.1:${port}`;
  t = await startTestApp({ WARREN_URL: `http://${domain}`, WARREN_ALLOW_PRIVATE_ADDRESSES: "true", WARREN_JOB_WORKERS: "2", ...env });
  const instance: Instance = {
    t,
    domain,
    port,
    down() {
      server?.stop(true);
      server = null;
    },
    up() {
      if (!server) server = serve(port);
    },
  };
  stops.set(instance, async () => {
    instance.down();
    await t!.close();
  });
  return instance;
}

const stops = new WeakMap<Instance, () => Promise<void>>();

export async function stopInstance(instance: Instance): Promise<void> {
  await stops.get(instance)?.();
}

/** GET (or `init`) `path` on an instance as `token`, expecting 200; the parsed body. */
export async function json(i: Instance, path: string, token: string | undefined, init: RequestInit = {}): Promise<any> {
  const res = await i.t.request(path, { ...init, token });
  if (res.status !== 200) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Resolves `@username@on.domain` on `from` (search with resolve=true) as `token`: the remote Account. */
export async function resolveAccount(from: Instance, token: string, username: string, on: Instance): Promise<any> {
  const q = encodeURIComponent(`@${username}@${on.domain}`);
  const found = await json(from, `/api/v2/search?q=${q}&resolve=true&type=accounts`, token);
  expect(found.accounts.length).toBe(1);
  return found.accounts[0];
}

export async function relationship(i: Instance, token: string, id: string): Promise<any> {
  return (await json(i, `/api/v1/accounts/relationships?id[]=${id}`, token))[0];
}

/** The federation messages (deliveries, retries, circuit probes, incoming activities) waiting in `t`'s queue. */
function queuedMessages(t: TestApp): { runAt: number; inbox?: string }[] {
  return pendingJobs(t.deps.store, 100_000)
    .filter((job) => job.type === FEDERATION_MESSAGE_JOB)
    .map((job) => ({ runAt: job.runAt, inbox: JSON.parse((job.payload as { message: string }).message)?.inbox }));
}

/** Runs `t`'s due jobs to the end, then tells how long until its next federation message (a delivery, a retry,
 * a circuit probe) may run: Infinity when none waits. Nothing can be sent before then, so "nothing more was
 * sent" is proved without sleeping through retry periods. */
export async function quietForMs(t: TestApp): Promise<number> {
  await t.deps.jobs.drain();
  return Math.min(...queuedMessages(t).map((message) => message.runAt)) - Date.now();
}

/** Runs `t`'s due jobs to the end, then counts the deliveries still queued for inboxes on `host`. */
export async function queuedDeliveriesTo(t: TestApp, host: string): Promise<number> {
  await t.deps.jobs.drain();
  return queuedMessages(t).filter((message) => message.inbox && new URL(message.inbox).host === host).length;
}

/** Fedify's circuit breaker record on `t` for deliveries to `host` (state, recent failures), if any. */
export async function circuit(t: TestApp, host: string): Promise<{ state: string; failures: string[] } | undefined> {
  return (await new LmdbKvStore(t.deps.store).get([...CIRCUIT_PREFIX, host])) as { state: string; failures: string[] } | undefined;
}
