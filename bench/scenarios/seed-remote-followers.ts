// Seeds a running bench Warren (same data directory, run through Warren.script) with remote followers of one
// local account, for federation_delivery (bench/scenarios/federation-delivery.ts): `perServer` accounts on
// each server of the delivery sink (one port of 127.0.0.1 per server), each with its own inbox and the
// server's shared inbox `http://127.0.0.1:<port>/inbox`, as Mastodon actors have. Written straight into the
// store (accounts and follows, one transaction per 1,000 accounts): 5,000 remote accounts resolved through
// WebFinger and Follow activities would measure that, not delivery.
//
//   bun bench/scenarios/seed-remote-followers.ts <local account id> <per server> <file with the ports, one per line>
// prints {"followers": N, "servers": M}
import { readFileSync } from "node:fs";
import { createDeps } from "../../src/app.ts";
import { newId } from "../../src/lib/ids.ts";
import { insertAccount } from "../../src/store/accounts.ts";
import { putFollow } from "../../src/store/relationships.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";

const WRITE_BATCH = 1_000;

const [targetArg, perServerArg, portsFile] = process.argv.slice(2);
const targetId = targetArg!;
const perServer = Number(perServerArg);
const ports = readFileSync(portsFile!, "utf8").split("\n").filter(Boolean).map(Number);
const { store } = createDeps();

function remoteFollower(port: number, n: number, now: number): AccountRecord {
  const base = `http://127.0.0.1:${port}`;
  const actor = `${base}/users/f${n}`;
  return {
    v: 1, id: newId(now), username: `f${n}`, domain: `127.0.0.1:${port}`, displayName: "", note: "", noteSource: "", fields: [], locked: false,
    bot: false, group: false, discoverable: true, indexable: true, hideCollections: false, avatarUrl: null, avatarDescription: "", headerUrl: null,
    headerDescription: "", createdAt: now, uri: actor, url: `${base}/@f${n}`, inbox: `${actor}/inbox`, sharedInbox: `${base}/inbox`,
    outbox: `${actor}/outbox`, followersUrl: `${actor}/followers`, followingUrl: `${actor}/following`, statusesCount: 0, followersCount: 0,
    followingCount: 0, lastStatusAt: null, suspended: false, silenced: false, memorial: false,
  };
}

const all = ports.flatMap((port) => Array.from({ length: perServer }, (_, n) => ({ port, n })));
for (let start = 0; start < all.length; start += WRITE_BATCH) {
  await store.write(() => {
    for (const { port, n } of all.slice(start, start + WRITE_BATCH)) {
      const now = Date.now();
      const account = remoteFollower(port, n, now);
      insertAccount(store, account);
      putFollow(store, { v: 1, id: newId(now), accountId: account.id, targetId, reblogs: true, notify: false, languages: null, createdAt: now, uri: null });
    }
  });
}
await store.close();
console.log(JSON.stringify({ followers: all.length, servers: ports.length }));
