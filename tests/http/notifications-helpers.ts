// Shared steps of the notification tests: users and the actions that notify them.
import type { TestApp } from "../helpers/app.ts";
import { follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

export { block, call, follow, get, mute, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

export const favourite = (t: TestApp, user: User, statusId: string) => post(t, `/api/v1/statuses/${statusId}/favourite`, user.token);
export const reblog = (t: TestApp, user: User, statusId: string) => post(t, `/api/v1/statuses/${statusId}/reblog`, user.token);

/** A user whose follow requests need approval. */
export async function lockedUser(t: TestApp, prefix = "locked") {
  const user = await newUser(t, prefix);
  const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: user.token, json: { locked: true } });
  if (res.status !== 200) throw new Error(`update_credentials failed: ${res.status}`);
  return user;
}

/** `owner` receives, oldest first: a follow from `a`, a mention from `a`, a favourite and a reblog from `b`. */
export async function busyRecipient(t: TestApp) {
  const [owner, a, b] = [await newUser(t, "n"), await newUser(t, "n"), await newUser(t, "n")];
  await follow(t, a, owner);
  const mention = await postStatus(t, a, `hello @${owner.username}`);
  const own = await postStatus(t, owner, "my post");
  await favourite(t, b, own.id);
  await reblog(t, b, own.id);
  return { owner, a, b, mention, own };
}

export const notifications = (t: TestApp, user: User, query = "") => get(t, `/api/v1/notifications${query}`, user.token);
export const types = (body: { type: string }[]) => body.map((n) => n.type);
