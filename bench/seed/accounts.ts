// Seeded accounts: created through createLocalAccount (validation, URLs, the transactional uniqueness check)
// with one shared password hash and key pair (SharedSeedCredentials), each given a user token.
import type { Deps } from "../../src/deps.ts";
import type { UserViewer } from "../../src/domain/auth/viewer.ts";
import { createLocalAccount, generateAccountKeys, type SharedSeedCredentials } from "../../src/domain/accounts/create.ts";
import { hashPassword } from "../../src/domain/auth/password.ts";
import { registerApp } from "../../src/domain/oauth/apps.ts";
import { issueToken } from "../../src/domain/oauth/tokens.ts";
import { SCOPES } from "../lib/client.ts";
import type { SeededAccount } from "./manifest.ts";
import { Progress } from "./progress.ts";

export const SEED_PASSWORD = "seeded-benchmark-password";
/** Accounts created concurrently (their writes share commits). */
const WAVE = 500;

export const usernameOf = (index: number) => `user${index}`;

export interface SeededUsers {
  /** Acting viewers for the domain actions, by account index. */
  viewers: UserViewer[];
  manifest: SeededAccount[];
}

export async function createAccounts(deps: Deps, count: number): Promise<SeededUsers> {
  const [passwordHash, keys] = await Promise.all([hashPassword(SEED_PASSWORD), generateAccountKeys()]);
  const shared: SharedSeedCredentials = { passwordHash, keys: { v: 1, publicKeyPem: keys.publicKey, privateKeyPem: keys.privateKey } };
  const scopes = SCOPES.split(" ");
  const { app } = await registerApp(deps, { client_name: "warren bench seed", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: SCOPES });
  const viewers: UserViewer[] = [];
  const manifest: SeededAccount[] = [];
  const progress = new Progress("accounts", count);
  for (let from = 0; from < count; from += WAVE) {
    const indexes = Array.from({ length: Math.min(WAVE, count - from) }, (_, i) => from + i);
    const created = await Promise.all(indexes.map((index) => createLocalAccount(deps, {
      username: usernameOf(index),
      email: `${usernameOf(index)}@bench.example`,
      password: SEED_PASSWORD,
      approved: true,
      confirmed: true,
    }, shared)));
    const tokens = await deps.store.write(() => created.map(({ account }) => issueToken(deps.store, app.id, account.id, scopes)));
    for (const [i, { account, user }] of created.entries()) {
      viewers.push({ token: tokens[i]!.record, app, account, user, scopes });
      manifest.push({ id: account.id, username: account.username, token: tokens[i]!.raw });
    }
    progress.update(viewers.length);
  }
  progress.done();
  return { viewers, manifest };
}
