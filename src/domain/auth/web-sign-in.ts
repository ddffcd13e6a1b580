// Sign-in at /auth/sign_in: the password check of the OAuth sign-in (domain/oauth/sign-in.ts), then what the
// API refuses a token for (API.md §1.1), so the page can say why instead of handing out a useless session.
import type { Store } from "../../store/db.ts";
import { signIn } from "../oauth/sign-in.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";

export type WebSignInResult =
  | { ok: true; account: AccountRecord; user: UserRecord }
  | { ok: false; reason: "invalid" | "disabled" | "unconfirmed" | "pending" };

export async function signInToWeb(store: Store, login: string, password: string): Promise<WebSignInResult> {
  const result = await signIn(store, login, password);
  if (!result.ok) return result;
  if (result.user.confirmedAt === null) return { ok: false, reason: "unconfirmed" };
  if (!result.user.approved) return { ok: false, reason: "pending" };
  return result;
}
