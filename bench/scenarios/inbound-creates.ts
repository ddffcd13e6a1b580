// Inbound federation per core (bench/processes.ts `--inbound=N`): N signed `Create(Note)` activities POSTed
// to Warren's shared inbox by a loopback sender, as a busy remote server delivers them, with Warren run as 1
// or as several processes. The sender is the test peer (tests/peer/server.ts: Bun.serve and node:crypto, not
// Fedify) in this process: 10 actors on it, each followed by 3 local users (followed through the API, so
// each note is stored and fanned out to 3 home timelines, as a followed account's posts are). Every request
// is signed before the clock starts (draft-cavage, as Mastodon signs), so the sender's RSA work is not in
// the figures; `senders` requests are in flight at a time.
//
// Measured: accepted/s (the 202s, from the first POST to the last answer), processed/s (until the job queue
// has settled: nothing claimed, nothing due, read from the shared store), and activities per server
// CPU-second over the whole window (the supervisor and its processes, every thread: bench/lib/cpu.ts).
import { BenchClient } from "../lib/client.ts";
import { treeCpuSeconds } from "../lib/cpu.ts";
import { startWarren, type Warren } from "../lib/servers.ts";
import { startPeer, type Peer, type PeerActor } from "../../tests/peer/server.ts";
import { activity, note } from "../../tests/peer/objects.ts";
import { signCavage } from "../../tests/peer/signatures.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { claimedJobs, deadJobs, dueJobs, LANES, pendingJobs } from "../../src/store/jobs.ts";
import { remoteStatusIdByUri } from "../../src/store/statuses.ts";

const ACTORS = 10;
const READERS = 3;
const SETTLE_TIMEOUT_MS = 300_000;

export interface InboundRow {
  processes: number;
  activities: number;
  acceptedPerSecond: number;
  processedPerSecond: number;
  cpuSeconds: number;
  perCpuSecond: number;
  stored: number;
  refused: number;
  dead: number;
  /** Jobs waiting to be tried again after a failure once the queue settled, and their errors. */
  retrying: string[];
  /** Requests Warren made to the sender during the window (key, actor or object fetches), by path kind. */
  fetches: Record<string, number>;
}

interface Signed {
  uri: string;
  headers: Record<string, string>;
  body: string;
}

/** READERS local users following ACTORS actors of the peer (each follow accepted by the peer). */
async function followPeerActors(warren: Warren, peer: Peer): Promise<PeerActor[]> {
  const client = new BenchClient(warren);
  const actors = Array.from({ length: ACTORS }, (_, n) => peer.actor(`sender${n}`));
  for (let r = 0; r < READERS; r++) {
    const reader = await client.user(`reader${r}`);
    for (const actor of actors) {
      const q = encodeURIComponent(`@${actor.username}@${peer.domain}`);
      const found = await client.api<{ accounts: { id: string }[] }>(`/api/v2/search?q=${q}&resolve=true&type=accounts`, { token: reader.token });
      await client.api(`/api/v1/accounts/${found.accounts[0]!.id}/follow`, { method: "POST", token: reader.token });
    }
  }
  const deadline = Date.now() + 30_000;
  while (peer.deliveries("Follow").length < ACTORS * READERS) {
    if (Date.now() > deadline) throw new Error(`the peer got ${peer.deliveries("Follow").length} of ${ACTORS * READERS} follows`);
    await Bun.sleep(20);
  }
  return actors;
}

function signCreates(warren: Warren, peer: Peer, actors: PeerActor[], count: number): Signed[] {
  const inbox = new URL(`${warren.url}/inbox`);
  return Array.from({ length: count }, (_, n) => {
    const actor = actors[n % actors.length]!;
    const object = note(peer, actor, { content: `<p>inbound ${n}</p>` });
    const body = JSON.stringify(activity(peer, actor, "Create", object));
    const headers = signCavage("POST", inbox, { "content-type": "application/activity+json", "user-agent": "bench-peer (+http://127.0.0.1/)" }, body, {
      keyId: actor.keyId,
      privateKey: actor.privateKey,
    });
    return { uri: object.id as string, headers, body };
  });
}

/** Nothing claimed and nothing due: every job the activities caused has run. */
function settled(store: Store): boolean {
  store.freshSnapshot();
  const now = Date.now();
  return claimedJobs(store, 1).length === 0 && LANES.every((lane) => dueJobs(store, lane, now, 1).length === 0);
}

function fetchesOf(peer: Peer, from: number): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const request of peer.requests.slice(from)) {
    const kind = `${request.method} ${request.path.replace(/\/\d+$/, "/<n>").replace(/sender\d+/, "<actor>")}`;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

async function send(url: string, requests: Signed[], senders: number): Promise<number> {
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const res = await fetch(`${url}/inbox`, { method: "POST", headers: request.headers, body: request.body });
        await res.arrayBuffer();
        if (res.status !== 202) refused++;
      }
    }),
  );
  return refused;
}

export async function measureInbound(processes: number, count: number, senders: number): Promise<InboundRow> {
  const peer = startPeer({ flavour: "mastodon" });
  const warren = await startWarren({ env: { WARREN_PROCESSES: String(processes), WARREN_ALLOW_PRIVATE_ADDRESSES: "true" } });
  // A read-only look at the shared store, to see the job queue settle.
  const store = openStore((await warren.script("tests/fixtures/print-data-dir.ts")).stdout.trim(), { migrate: false });
  try {
    const actors = await followPeerActors(warren, peer);
    const requests = signCreates(warren, peer, actors, count);
    while (!settled(store)) await Bun.sleep(20);
    const requestsBefore = peer.requests.length;
    const cpuBefore = treeCpuSeconds(warren.pid);
    const started = performance.now();
    const refused = await send(warren.url, requests, senders);
    const accepted = performance.now();
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (!settled(store) && Date.now() < deadline) await Bun.sleep(10);
    const done = performance.now();
    const cpuSeconds = treeCpuSeconds(warren.pid) - cpuBefore;
    store.freshSnapshot();
    const stored = requests.filter((request) => remoteStatusIdByUri(store, request.uri) !== undefined).length;
    return {
      processes,
      activities: count,
      acceptedPerSecond: count / ((accepted - started) / 1000),
      processedPerSecond: stored / ((done - started) / 1000),
      cpuSeconds,
      perCpuSecond: stored / cpuSeconds,
      stored,
      refused,
      dead: deadJobs(store).length,
      retrying: pendingJobs(store, 10_000).filter((job) => job.lastError).map((job) => `${job.type}: ${job.lastError}`),
      fetches: fetchesOf(peer, requestsBefore),
    };
  } finally {
    await store.close();
    await warren.stop();
    peer.stop();
  }
}
