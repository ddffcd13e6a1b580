// Values for parameters: plausible ones (ids that exist, names of real users, known enums) and hostile ones
// (unicode edge cases, bad ids, wrong types, huge strings). Everything is drawn from the seeded Random.
import type { Random } from "./random.ts";

/** What exists on the server under test, so that "valid" requests reach past the 404s. */
export interface Pools {
  domain: string;
  accounts: string[];
  usernames: string[];
  /** The fixture users' passwords, in the order of `usernames`. */
  passwords: string[];
  /** A CSRF cookie value and the matching form token of the sign-in page. */
  csrf: { cookie: string; token: string };
  statuses: string[];
  lists: string[];
  notifications: string[];
  groupKeys: string[];
  tags: string[];
  apps: { client_id: string; client_secret: string }[];
  /** Tokens the fuzzer may revoke through /oauth/revoke: never used to authenticate. */
  spareTokens: string[];
  /** A working user token, for the streaming `access_token` parameter. */
  streamToken: string;
}

/** Strings that have broken parsers, databases and renderers before. */
export const UNICODE_EDGES = [
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u001b[31m\u007f",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\u202eevil\u202c",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "\u0645\u0631\u062d\u0628\u0627",
  "\ud83d\udc69\u200d\ud83d\udc69\u200d\ud83d\udc67\u200d\ud83d\udc66",
  "\ud83c\uddfa\ud83c\udde6\ud83c\udff4\u200d\u2620\ufe0f",
  "Z\u0334\u0327\u031b\u0348\u034e\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308",
  "\ufeffbom",
  "\u200b\u200c\u200d\u2060",
  "\u2028\u2029",
  "\r\n\r\n",
  "\t \u00a0 \u3000",
  "\uffff\ufffe",
  "\ud834\udd1e\ud835\udd4f",
  "\ue000\udb80\udc00",
  "\u0130\u0131\u00df\u1e9e",
  "\u00e9\u0065\u0301",
  "\u0085\u008d",
  "%00%2e%2e%2f",
  "../../../../etc/passwd",
  "<script>alert(1)</script>",
  "<a href=\"javascript:alert(1)\">x</a>",
  "'; DROP TABLE accounts; --",
  "${jndi:ldap://127.0.0.1/x}",
  "{{7*7}}",
  "\"\\'\\\"`",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
  "0x10",
  "[object Object]",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "http://169.254.169.254/latest/meta-data/",
  "@alice@localhost @@ @",
  "#\u0000 #\ud800 ##",
  " ",
  "",
];

/** Ids that cannot name anything: the answer must be 404 (or an empty list), never a 500. */
export const BAD_IDS = [
  "-1",
  "0",
  "00000000000000000000",
  "9".repeat(5000),
  "1".repeat(19),
  "18446744073709551616",
  "1e10",
  "1.5",
  " 1",
  "0x1F",
  "abc",
  "null",
  "\u0661\u0662\u0663",
  "\uff11\uff12",
  "%00",
  "..",
  "%2e%2e%2f",
  "\ud800",
  "1;2",
  "1,2",
  "[1]",
  "__proto__",
  "constructor",
  "toString",
];

const SCOPES = ["read", "write", "follow", "push", "profile", "read:statuses", "write:statuses", "write:accounts",
  "read:notifications", "admin:read", "admin:write", "read:lists", "write:lists", "bogus", "read write follow push"];
const NOTIFICATION_TYPES = ["mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update",
  "admin.sign_up", "admin.report", "severed_relationships", "moderation_warning", "quote", "bogus"];

export function text(rng: Random): string {
  return rng.pick([
    "hello",
    "Hello #fuzz world",
    "@alice hi",
    "@bob@" + "localhost hey",
    "see https://example.com/a?b=c",
    "multi\nline\ntext",
    "caf\u00e9 \u2603",
    "x".repeat(rng.int(1, rng.chance(0.8) ? 30 : 600)),
  ]);
}

export function unicodeEdge(rng: Random): string {
  return rng.chance(0.3) ? rng.pick(UNICODE_EDGES) + rng.pick(UNICODE_EDGES) : rng.pick(UNICODE_EDGES);
}

export function badId(rng: Random): string {
  return rng.pick(BAD_IDS);
}

/** Sizes around the limits: beyond 500-character texts, beyond 1 MB bodies. */
export function hugeString(rng: Random): string {
  const length = rng.pick([5_000, 70_000, 600_000, 1_100_000, 2_500_000]);
  return rng.pick(["a", "\u00e9", "\ud83d\ude00", "#t ", "@a "]).repeat(Math.ceil(length / 2)).slice(0, length);
}

/** Text past LMDB's 1978-byte keys and past the 8 KiB request target, ASCII and multi-byte: for names and ids. */
export function longText(rng: Random): string {
  const length = rng.pick([1_000, 2_000, 2_000, 10_000]);
  return rng.pick(["a", "\u00e9", "\u65e5", "\ud83d\ude00", "a.", "#a"]).repeat(length).slice(0, length);
}

export function hugeArray(rng: Random): string[] {
  return Array.from({ length: rng.pick([1_001, 5_000, 20_000]) }, (_, i) => String(i));
}

/** A value of the wrong JSON type for any field. */
export function wrongType(rng: Random): unknown {
  return rng.pick<unknown>([
    0,
    -1,
    1.5,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    true,
    false,
    null,
    [],
    ["a", 1, null],
    {},
    { a: { b: "c" } },
    [[["x"]]],
    { length: 1e9 },
    { toString: "x", valueOf: "y" },
  ]);
}

function pickId(rng: Random, pool: string[]): string {
  return pool.length > 0 && rng.chance(0.9) ? rng.pick(pool) : rng.pick(["1", "109876543210987654", badId(rng)]);
}

/** The pool an `id` path parameter draws from, judged by the route's path. */
function idPoolFor(path: string, pools: Pools): string[] {
  if (path.includes("/statuses/") && !path.includes("/accounts/")) return pools.statuses;
  if (path.includes("/lists/") || path.includes("/timelines/list/")) return pools.lists;
  if (path.includes("/notifications/")) return pools.notifications;
  return pools.accounts;
}

/** A plausible value for a parameter called `name` on `path`, or undefined when its name says nothing. */
export function valueByName(rng: Random, name: string, path: string, pools: Pools): unknown {
  const anyId = () => pickId(rng, [...pools.statuses, ...pools.notifications, ...pools.accounts]);
  switch (name) {
    case "id":
      return pickId(rng, idPoolFor(path, pools));
    case "account_id":
      return pickId(rng, pools.accounts);
    case "account_ids":
      return [pickId(rng, pools.accounts), pickId(rng, pools.accounts)];
    case "in_reply_to_id":
      return pickId(rng, pools.statuses);
    case "media_ids":
      // No media fixtures: a status id names no attachment (422); mostly send none.
      return rng.chance(0.8) ? [] : [pickId(rng, pools.statuses)];
    case "max_id":
    case "since_id":
    case "min_id":
    case "last_read_id":
      return anyId();
    case "group_key":
      return rng.chance(0.8) && pools.groupKeys.length > 0 ? rng.pick(pools.groupKeys) : rng.pick(["ungrouped-1", "favourite-1-2", "x"]);
    case "list":
      return pickId(rng, pools.lists);
    case "hashtag":
    case "tag":
    case "tagged":
      return rng.pick(pools.tags);
    case "any":
    case "all":
    case "none":
      return [rng.pick(pools.tags), rng.pick(pools.tags)];
    case "limit":
      return String(rng.pick([1, 2, 20, 40, 80, 1000, -5, 0]));
    case "acct":
      return rng.pick([...pools.usernames, `${rng.pick(pools.usernames)}@${pools.domain}`, "nobody@remote.example"]);
    case "resource":
      return rng.pick([`acct:${rng.pick(pools.usernames)}@${pools.domain}`, `http://${pools.domain}/@alice`, "acct:x@y"]);
    case "client_id":
      return rng.pick(pools.apps).client_id;
    case "client_secret":
      return rng.pick(pools.apps).client_secret;
    case "redirect_uri":
    case "redirect_uris":
      return rng.chance(0.7) ? "urn:ietf:wg:oauth:2.0:oob" : rng.pick(["https://client.example/cb", "myapp://cb"]);
    case "scope":
    case "scopes":
      return rng.chance(0.5) ? "read" : rng.pick(SCOPES);
    case "grant_type":
      return rng.pick(["authorization_code", "password", "client_credentials", "refresh_token", "bogus"]);
    case "response_type":
      return rng.chance(0.8) ? "code" : "token";
    case "response_mode":
      return rng.pick(["query", "fragment", "form_post", "bogus"]);
    case "force_login":
      return rng.pick(["true", "false"]);
    case "decision":
      return rng.chance(0.8) ? "approve" : "deny";
    case "code_challenge_method":
      return rng.chance(0.9) ? "S256" : "plain";
    case "code_challenge":
    case "code_verifier":
      return "A".repeat(rng.pick([43, 64, 128]));
    case "username":
      return rng.chance(0.5) ? rng.pick(pools.usernames) : `fz${rng.int(0, 1e9)}`;
    case "email":
      return `fz${rng.int(0, 1e9)}@example.com`;
    case "password":
      return rng.chance(0.3) ? rng.pick(pools.passwords) : `pw-${rng.int(0, 1e9)}-secret`;
    case "agreement":
      return rng.pick([true, "true", "1"]);
    case "token":
      return rng.pick(pools.spareTokens);
    case "authenticity_token":
      return rng.chance(0.8) ? pools.csrf.token : "other";
    case "access_token":
      return pools.streamToken;
    case "stream":
      return rng.pick(["user", "user:notification", "public", "public:local", "public:remote", "hashtag", "hashtag:local", "list", "direct", "public:media"]);
    case "types":
    case "exclude_types":
    case "grouped_types":
      return [rng.pick(NOTIFICATION_TYPES), rng.pick(NOTIFICATION_TYPES)];
    case "timeline":
      return [rng.pick(["home", "notifications", "bogus"])];
    case "locale":
    case "language":
    case "lang":
      return rng.pick(["en", "de", "fr", "ja", "zz", "en-GB"]);
    case "website":
      return rng.pick(["https://client.example", "not a url", ""]);
    case "privacy":
      return rng.pick(["public", "unlisted", "private", "direct"]);
    case "file":
      return rng.pick(["36x36.png", "192x192.png", "1024x1024.png", "99999999x99999999.png", "0x0.png", "apple-touch-icon.png"]);
    case "idempotency-key":
      return `key-${rng.int(0, 50)}`;
    case "fields_attributes":
      return [{ name: "site", value: "https://example.com" }, { name: text(rng), value: text(rng) }];
    case "avatar":
    case "header":
      return imageFile(rng);
    case "*":
      return rng.pick(["media/x.png", "accounts/avatars/1/original.png", "../etc/passwd", "a/b/c/d"]);
    default:
      return undefined;
  }
}

/** A tiny valid PNG, or bytes that only claim to be one. */
export function imageFile(rng: Random): File {
  const png = Uint8Array.from(atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ), (c) => c.charCodeAt(0));
  if (rng.chance(0.6)) return new File([png], "a.png", { type: "image/png" });
  return rng.pick([
    new File([png.slice(0, 20)], "truncated.png", { type: "image/png" }),
    new File([new TextEncoder().encode("<svg onload=alert(1)>")], "x.svg", { type: "image/svg+xml" }),
    new File([new Uint8Array(0)], "", { type: "image/png" }),
    new File([new Uint8Array(3000).fill(0xff)], "../../x.gif", { type: "image/gif" }),
    new File([png], "\u202egnp.exe", { type: "application/x-msdownload" }),
  ]);
}
