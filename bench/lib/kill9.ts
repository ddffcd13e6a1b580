// "Nothing acknowledged is ever lost": writes with several requests in flight, SIGKILL of the server at a
// random moment, a restart on the same data directory, and a check that every write answered 200 is there
// and that the store is whole. bench/kill9.ts runs many rounds; tests/e2e/kill9.test.ts runs a short one.
//
// A write that was in flight when the process died may or may not have happened; either is allowed, but it
// must have happened entirely (a status is readable, listed and counted, or absent from all three). Each
// favourite (status × user) and each follow is only ever changed by one lane at a time, so the last
// acknowledged answer says what must be stored, unless a later request on it got no answer. After each
// check the stored state becomes the known state, so later rounds check everything written before too.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restartableWarren, type RestartableWarren } from "./restartable.ts";

export interface Kill9Options {
  rounds: number;
  /** Concurrent writers (requests in flight). */
  lanes?: number;
  /** SIGKILL this long after the load starts: a uniform random delay in [min, max] ms. */
  killAfterMs?: [number, number];
  log?: (line: string) => void;
}

export interface RoundResult {
  round: number;
  killAfterMs: number;
  acknowledged: number;
  /** Acknowledged writes by kind: post, favourite, unfavourite, follow, unfollow. */
  byKind: Record<string, number>;
  /** Requests without an answer when the process died. */
  unanswered: number;
  /** Of the unanswered status posts, how many turned out stored. */
  landed: number;
  lost: number;
  inconsistencies: number;
  restartMs: number;
  statuses: number;
}

export interface Kill9Result {
  rounds: RoundResult[];
  acknowledged: number;
  lost: number;
  inconsistencies: number;
  problems: string[];
}

interface User {
  name: string;
  id: string;
  token: string;
}

interface Known {
  id: string;
  content: string;
}

/** What must be stored for one favourite or follow: the last acknowledged state, unless a later request went unanswered. */
interface Toggle {
  on: boolean;
  uncertain: boolean;
}

class Http {
  readonly problems: string[] = [];
  fivexx = 0;
  constructor(readonly base: string) {}

  /** One request; throws on a network failure (the caller decides), records a 5xx as a problem. */
  async send(method: string, path: string, token: string, form?: Record<string, string>) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let body: string | undefined;
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(form).toString();
    }
    const url = path.startsWith("http") ? path : this.base + path;
    const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    if (res.status >= 500) {
      this.fivexx++;
      this.problems.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    }
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: left null
    }
    return { status: res.status, json, link: res.headers.get("link") };
  }

  /** A read after the restart: network failures are retried (a pooled connection may have died with the old process). */
  async get(path: string, token: string) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send("GET", path, token);
      } catch (error) {
        if (attempt >= 3) throw error;
        await Bun.sleep(100);
      }
    }
  }

  /** Every item of a paged list, following Link rel="next". */
  async all(path: string, token: string): Promise<any[]> {
    const items: any[] = [];
    let next: string | null = path;
    while (next) {
      const res = await this.get(next, token);
      if (res.status !== 200 || !Array.isArray(res.json)) throw new Error(`GET ${next}: ${res.status}`);
      if (res.json.length === 0) break;
      items.push(...res.json);
      next = /<([^>]+)>;\s*rel="next"/.exec(res.link ?? "")?.[1] ?? null;
    }
    return items;
  }
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (i < items.length) await fn(items[i++]!);
  }));
}

const KINDS = ["post", "favourite", "unfavourite", "follow", "unfollow"];
const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

async function createUser(warren: RestartableWarren, http: Http, app: { client_id: string; client_secret: string }, name: string): Promise<User> {
  const email = `${name}@example.com`;
  const created = await warren.cli("accounts", "create", name, `--email=${email}`, "--confirmed");
  const password = /New password: (\S+)/.exec(created.stdout)?.[1];
  if (created.code !== 0 || !password) throw new Error(`accounts create ${name} failed (${created.code}): ${created.stdout}${created.stderr}`);
  const res = await fetch(`${http.base}/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "password", username: email, password, client_id: app.client_id, client_secret: app.client_secret, scope: "read write" }),
  });
  const grant = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !grant.access_token) throw new Error(`password grant for ${name}: ${res.status} ${JSON.stringify(grant)}`);
  const me = await http.get("/api/v1/accounts/verify_credentials", grant.access_token);
  return { name, id: me.json.id, token: grant.access_token };
}

export async function runKill9(options: Kill9Options): Promise<Kill9Result> {
  const lanes = options.lanes ?? 6;
  const [killMin, killMax] = options.killAfterMs ?? [200, 1500];
  const log = options.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), "warren-kill9-"));
  const warren = restartableWarren(dir);
  const http = new Http(warren.url);
  const rounds: RoundResult[] = [];
  const problems = http.problems;
  const runId = Math.random().toString(36).slice(2, 8);

  const statuses = new Map<string, Known>();
  const favourites = new Map<string, Toggle>(); // `${statusId} ${userIndex}`
  const follows = new Map<string, Toggle>(); // followee id

  try {
    await warren.start();
    const appRes = await fetch(`${warren.url}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "kill9", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" }),
    });
    const app = (await appRes.json()) as { client_id: string; client_secret: string };
    if (appRes.status !== 200) throw new Error(`POST /api/v1/apps: ${appRes.status}`);
    const [author, fan, other] = await Promise.all(["author", "fan", "other"].map((name) => createUser(warren, http, app, `k9${name}`)));
    const favouriters = [author!, fan!];
    const followees = [fan!, other!];

    for (let round = 1; round <= options.rounds; round++) {
      const problemsBefore = problems.length;
      let acknowledged = 0;
      const byKind: Record<string, number> = {};
      const ack = (kind: string) => {
        acknowledged++;
        byKind[kind] = (byKind[kind] ?? 0) + 1;
      };
      let unanswered = 0;
      let lost = 0;
      let inconsistent = 0;
      const loss = (what: string) => {
        lost++;
        problems.push(`round ${round}: LOST ${what}`);
      };
      const inconsistency = (what: string) => {
        inconsistent++;
        problems.push(`round ${round}: ${what}`);
      };

      // ---- load, then SIGKILL ----
      const pendingPosts = new Set<string>(); // texts of posts sent and not answered
      const owned: string[][] = Array.from({ length: lanes }, () => []);
      [...statuses.keys()].forEach((id, i) => owned[i % lanes]!.push(id));
      let killed = false;
      const lane = async (w: number) => {
        for (let n = 0; !killed; n++) {
          const choice = Math.random();
          try {
            if (w === 0 && choice < 0.15) {
              const followee = followees[random(0, followees.length - 1)]!;
              const state = follows.get(followee.id) ?? { on: false, uncertain: false };
              follows.set(followee.id, state);
              const want = !state.on;
              state.uncertain = true;
              const res = await http.send("POST", `/api/v1/accounts/${followee.id}/${want ? "follow" : "unfollow"}`, author!.token);
              if (res.status !== 200) {
                inconsistency(`${want ? "follow" : "unfollow"}: ${res.status}`);
                continue;
              }
              ack(want ? "follow" : "unfollow");
              Object.assign(state, { on: want, uncertain: false });
              if (res.json?.following !== want) inconsistency(`${want ? "follow" : "unfollow"} answered following: ${res.json?.following}`);
            } else if (owned[w]!.length > 0 && choice < 0.5) {
              const id = owned[w]![random(0, owned[w]!.length - 1)]!;
              const u = random(0, favouriters.length - 1);
              const key = `${id} ${u}`;
              const state = favourites.get(key) ?? { on: false, uncertain: false };
              favourites.set(key, state);
              const want = !state.on;
              state.uncertain = true;
              const res = await http.send("POST", `/api/v1/statuses/${id}/${want ? "favourite" : "unfavourite"}`, favouriters[u]!.token);
              if (res.status !== 200) {
                inconsistency(`${want ? "favourite" : "unfavourite"} ${id}: ${res.status}`);
                continue;
              }
              ack(want ? "favourite" : "unfavourite");
              Object.assign(state, { on: want, uncertain: false });
              if (res.json?.favourited !== want) inconsistency(`${want ? "favourite" : "unfavourite"} ${id} answered favourited: ${res.json?.favourited}`);
            } else {
              const text = `kill9 ${runId} r${round} w${w} n${n}`;
              pendingPosts.add(text);
              const res = await http.send("POST", "/api/v1/statuses", author!.token, { status: text, visibility: "public" });
              if (res.status !== 200) {
                inconsistency(`POST /api/v1/statuses: ${res.status}`);
                continue;
              }
              pendingPosts.delete(text);
              ack("post");
              statuses.set(res.json.id, { id: res.json.id, content: res.json.content });
              owned[w]!.push(res.json.id);
              if (!String(res.json.content).includes(text)) inconsistency(`status ${res.json.id} answered content ${res.json.content}`);
            }
          } catch {
            // No answer: the process died under this request (or before it was sent).
            unanswered++;
            return;
          }
        }
      };
      const killAfterMs = random(killMin, killMax);
      const load = Array.from({ length: lanes }, (_, w) => lane(w));
      await Bun.sleep(killAfterMs);
      killed = true;
      await warren.kill9();
      await Promise.all(load);

      // ---- restart on the same directory ----
      const restartMs = await warren.start();

      // ---- check ----
      // Every acknowledged status (this round's and every earlier round's) is readable with its content.
      const seen = new Map<string, any>();
      await pool([...statuses.values()], 8, async (known) => {
        const res = await http.get(`/api/v1/statuses/${known.id}`, author!.token);
        if (res.status !== 200) return loss(`status ${known.id}: GET answered ${res.status}`);
        if (res.json.content !== known.content) return loss(`status ${known.id}: content ${JSON.stringify(res.json.content)}, was ${JSON.stringify(known.content)}`);
        if (res.json.account?.id !== author!.id) inconsistency(`status ${known.id}: account ${res.json.account?.id}`);
        seen.set(known.id, res.json);
      });

      // The account's listing holds exactly those, plus unanswered posts that landed whole; its count agrees.
      const listed = await http.all(`/api/v1/accounts/${author!.id}/statuses?limit=40`, author!.token);
      const listedIds = new Set(listed.map((s) => s.id as string));
      if (listedIds.size !== listed.length) inconsistency(`account statuses list repeats ids (${listed.length} items, ${listedIds.size} ids)`);
      for (const id of seen.keys()) if (!listedIds.has(id)) loss(`status ${id} readable but not in the account's statuses`);
      let landed = 0;
      for (const status of listed) {
        if (statuses.has(status.id)) continue;
        const text = [...pendingPosts].find((t) => String(status.content).includes(`${t}<`));
        if (!text) {
          inconsistency(`status ${status.id} listed, but no post of it was sent or it was already stored: ${status.content}`);
          continue;
        }
        const res = await http.get(`/api/v1/statuses/${status.id}`, author!.token);
        if (res.status !== 200 || res.json.content !== status.content) {
          inconsistency(`status ${status.id} (unanswered post) listed but GET answered ${res.status}`);
          continue;
        }
        pendingPosts.delete(text);
        landed++;
        statuses.set(status.id, { id: status.id, content: status.content });
        seen.set(status.id, res.json);
      }
      for (const path of ["/api/v1/accounts/verify_credentials", `/api/v1/accounts/${author!.id}`]) {
        const res = await http.get(path, author!.token);
        if (res.json?.statuses_count !== listed.length) inconsistency(`${path}: statuses_count ${res.json?.statuses_count}, ${listed.length} statuses listed`);
      }

      // Favourites: each acknowledged one is there, each count agrees with favourited_by.
      await pool([...seen.values()], 6, async (status) => {
        const by = new Set((await http.all(`/api/v1/statuses/${status.id}/favourited_by?limit=80`, author!.token)).map((a) => a.id as string));
        if (status.favourites_count !== by.size) inconsistency(`status ${status.id}: favourites_count ${status.favourites_count}, favourited_by lists ${by.size}`);
        for (const [u, user] of favouriters.entries()) {
          const state = favourites.get(`${status.id} ${u}`);
          const favourited = u === 0 ? status.favourited : (await http.get(`/api/v1/statuses/${status.id}`, user.token)).json?.favourited;
          if (favourited !== by.has(user.id)) inconsistency(`status ${status.id}: favourited ${favourited} for ${user.name}, favourited_by ${by.has(user.id) ? "lists" : "omits"} them`);
          if (!state) {
            if (favourited) inconsistency(`status ${status.id}: favourited by ${user.name}, who never favourited it`);
            continue;
          }
          if (!state.uncertain && favourited !== state.on) loss(`${state.on ? "favourite" : "unfavourite"} of ${status.id} by ${user.name}: favourited ${favourited}`);
          Object.assign(state, { on: favourited === true, uncertain: false });
        }
      });

      // Follows: the relationship, both listings and both counts agree with what was acknowledged.
      const relationships = (await http.get(`/api/v1/accounts/relationships?${followees.map((f) => `id[]=${f.id}`).join("&")}`, author!.token)).json as any[];
      const following = new Set((await http.all(`/api/v1/accounts/${author!.id}/following?limit=80`, author!.token)).map((a) => a.id as string));
      const me = (await http.get(`/api/v1/accounts/${author!.id}`, author!.token)).json;
      if (me.following_count !== following.size) inconsistency(`following_count ${me.following_count}, following lists ${following.size}`);
      for (const followee of followees) {
        const rel = relationships.find((r) => r.id === followee.id);
        const followers = new Set((await http.all(`/api/v1/accounts/${followee.id}/followers?limit=80`, author!.token)).map((a) => a.id as string));
        const account = (await http.get(`/api/v1/accounts/${followee.id}`, author!.token)).json;
        if (account.followers_count !== followers.size) inconsistency(`${followee.name}: followers_count ${account.followers_count}, followers lists ${followers.size}`);
        const on = rel?.following === true;
        if (on !== followers.has(author!.id) || on !== following.has(followee.id)) inconsistency(`follow of ${followee.name}: relationship ${on}, followers/following listings disagree`);
        const state = follows.get(followee.id);
        if (state && !state.uncertain && state.on !== on) loss(`${state.on ? "follow" : "unfollow"} of ${followee.name}: following ${on}`);
        if (!state && on) inconsistency(`following ${followee.name}, never followed`);
        if (state) Object.assign(state, { on, uncertain: false });
      }

      // The restarted server takes writes and reads normally.
      const fresh = await http.send("POST", "/api/v1/statuses", author!.token, { status: `kill9 ${runId} r${round} after restart`, visibility: "public" });
      if (fresh.status !== 200) inconsistency(`POST /api/v1/statuses after the restart: ${fresh.status}`);
      else statuses.set(fresh.json.id, { id: fresh.json.id, content: fresh.json.content });
      for (const path of ["/api/v1/timelines/home", "/api/v1/notifications", "/api/v1/favourites"]) {
        const res = await http.get(path, fan!.token);
        if (res.status !== 200) inconsistency(`GET ${path} after the restart: ${res.status}`);
      }

      // 5xx answers were recorded by Http; count them here.
      const fivexx = problems.slice(problemsBefore).filter((p) => !p.startsWith(`round ${round}:`)).length;
      inconsistent += fivexx;
      const result: RoundResult = { round, killAfterMs, acknowledged, byKind, unanswered, landed, lost, inconsistencies: inconsistent, restartMs, statuses: listed.length };
      rounds.push(result);
      log(
        `round ${round}: SIGKILL at ${killAfterMs} ms, ${acknowledged} writes acknowledged (${KINDS.filter((k) => byKind[k]).map((k) => `${byKind[k]} ${k}`).join(", ")}), ${unanswered} unanswered (${landed} posts of them stored), ` +
          `${listed.length} statuses, restart ${restartMs.toFixed(0)} ms, lost ${lost}, inconsistencies ${inconsistent}`,
      );
    }
  } finally {
    await warren.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    rounds,
    acknowledged: rounds.reduce((n, r) => n + r.acknowledged, 0),
    lost: rounds.reduce((n, r) => n + r.lost, 0),
    inconsistencies: rounds.reduce((n, r) => n + r.inconsistencies, 0),
    problems,
  };
}
