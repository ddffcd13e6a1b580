// Shared steps of the relationship tests: users with tokens, and the calls a client makes.
import type { TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";

export type User = Awaited<ReturnType<typeof signedInUser>>;

/** The notifications `to` has from `from`, as stored. */
export const notificationsFrom = (t: TestApp, to: User, from: User) => notificationsBetween(t.deps.store, normaliseId(to.id)!, normaliseId(from.id)!);

export async function post(t: TestApp, path: string, token: string, json?: unknown) {
  const res = await t.request(path, { method: "POST", token, json: json ?? {} });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

export async function get(t: TestApp, path: string, token?: string) {
  const res = await t.request(path, { token });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** Locks the account (or sets hide_collections) the way its owner would, through update_credentials. */
export async function updateProfile(t: TestApp, user: User, fields: Record<string, boolean | string>) {
  const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: user.token, json: fields });
  if (res.status !== 200) throw new Error(`update_credentials failed: ${res.status} ${await res.text()}`);
}

export async function relationship(t: TestApp, viewer: User, other: User) {
  const res = await get(t, `/api/v1/accounts/relationships?id[]=${other.id}`, viewer.token);
  if (res.status !== 200 || res.body.length !== 1) throw new Error(`relationships failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[0];
}

export async function account(t: TestApp, user: User) {
  return (await get(t, `/api/v1/accounts/${user.id}`)).body;
}

let counter = 0;
/** A fresh, uniquely named user (tests in one file share an app). */
export function newUser(t: TestApp, prefix = "u", scope?: string) {
  return signedInUser(t, `${prefix}${++counter}`, scope);
}
