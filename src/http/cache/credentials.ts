// GET /api/v1/accounts/verify_credentials answered from kept bytes: the most frequent call of all, and its
// answer is a function of the viewer object alone (its account and user records, and the follow-request count
// kept beside it: domain/accounts/read.ts), which auth/viewer.ts hands out only while the token, the account
// and what it sees are unchanged. So the JSON is made once per viewer object and sent as UTF-8 bytes.
import { Value } from "@sinclair/typebox/value";
import type { Deps } from "../../deps.ts";
import type { UserViewer } from "../../domain/auth/viewer.ts";
import { viewerCredentialExtras } from "../../domain/accounts/read.ts";
import { CredentialAccountSchema, presentCredentialAccount, type CredentialAccount } from "../../entities/account.ts";

const keptBytes = new WeakMap<UserViewer, Uint8Array>();
const encoder = new TextEncoder();

/** The viewer's CredentialAccount as the bytes sent (typed as the entity the route's schema documents). */
export function credentialAccountBytes(deps: Deps, viewer: UserViewer, set: { headers: Record<string, unknown> }): CredentialAccount {
  let bytes = keptBytes.get(viewer);
  if (!bytes) {
    const account = presentCredentialAccount(deps.config, viewer.account, viewer.user, viewerCredentialExtras(deps, viewer));
    // Sent as bytes, the answer bypasses the route's response check: checked here under tests and in development.
    if (deps.config.checkResponses && !Value.Check(CredentialAccountSchema, account)) {
      const [first] = Value.Errors(CredentialAccountSchema, account);
      throw new Error(`a CredentialAccount does not match its schema: ${first?.path} ${first?.message}`);
    }
    keptBytes.set(viewer, (bytes = encoder.encode(JSON.stringify(account))));
  }
  set.headers["content-type"] = "application/json; charset=utf-8";
  return bytes as unknown as CredentialAccount;
}
