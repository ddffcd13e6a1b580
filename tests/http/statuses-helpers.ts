// Shared steps of the status tests: users, posting, and the relationship calls a client makes.
import { setDefaultTimeout } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";

// Users cost an argon2 hash and an RSA key each: generous limits keep the files stable on a loaded machine.
setDefaultTimeout(30_000);

export type User = Awaited<ReturnType<typeof signedInUser>>;

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

export async function call(t: TestApp, method: string, path: string, token?: string, json?: unknown, headers?: Record<string, string>) {
  return answer(await t.request(path, { method, token, json, headers }));
}

export const get = (t: TestApp, path: string, token?: string) => call(t, "GET", path, token);
export const post = (t: TestApp, path: string, token?: string, json: unknown = {}) => call(t, "POST", path, token, json);

/** Posts a status and returns its JSON (throws unless 200). */
export async function postStatus(t: TestApp, user: User, json: Record<string, unknown> | string) {
  const res = await post(t, "/api/v1/statuses", user.token, typeof json === "string" ? { status: json } : json);
  if (res.status !== 200) throw new Error(`posting failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function follow(t: TestApp, follower: User, target: User) {
  const res = await post(t, `/api/v1/accounts/${target.id}/follow`, follower.token);
  if (res.status !== 200 || !res.body.following) throw new Error(`follow failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function block(t: TestApp, blocker: User, target: User) {
  const res = await post(t, `/api/v1/accounts/${target.id}/block`, blocker.token);
  if (res.status !== 200) throw new Error(`block failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function mute(t: TestApp, muter: User, target: User) {
  const res = await post(t, `/api/v1/accounts/${target.id}/mute`, muter.token);
  if (res.status !== 200) throw new Error(`mute failed: ${res.status} ${JSON.stringify(res.body)}`);
}

let counter = 0;
/** A fresh, uniquely named user (tests in one file share an app). */
export function newUser(t: TestApp, prefix = "s", scope?: string) {
  return signedInUser(t, `${prefix}${++counter}`, scope);
}

/** The keys of a Mastodon 4.6 status we must always send (reference/mastodon-4.6-keys.json, top level). */
export const STATUS_KEYS = [
  "id", "created_at", "in_reply_to_id", "in_reply_to_account_id", "sensitive", "spoiler_text", "visibility", "language",
  "uri", "url", "replies_count", "reblogs_count", "favourites_count", "quotes_count", "edited_at", "content", "reblog",
  "application", "account", "media_attachments", "mentions", "tags", "emojis", "card", "poll", "quote", "quote_approval",
  "tagged_collections",
];
export const VIEWER_KEYS = ["favourited", "reblogged", "muted", "bookmarked", "filtered"];
