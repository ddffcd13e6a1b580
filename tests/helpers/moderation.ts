// Moderation states that no API or domain path sets yet (the admin API comes later): written here, in one
// place, as the admin actions will, so that the tests of what these states do need no store imports.
import { getAccount, putAccount } from "../../src/store/accounts.ts";
import type { TestApp } from "./app.ts";

async function changeAccount(t: TestApp, publicAccountId: string, change: { suspended?: true; silenced?: true }): Promise<void> {
  const id = publicAccountId.padStart(18, "0");
  await t.deps.store.write(() => putAccount(t.deps.store, { ...getAccount(t.deps.store, id)!, ...change }));
}

export const suspendAccount = (t: TestApp, publicAccountId: string) => changeAccount(t, publicAccountId, { suspended: true });
export const silenceAccount = (t: TestApp, publicAccountId: string) => changeAccount(t, publicAccountId, { silenced: true });
