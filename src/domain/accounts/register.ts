// POST /api/v1/accounts: an app (client_credentials token) signs a user up and receives the user's token.
// The account, its user and the token are written in one transaction: never an account without its token.
// The web form (/auth/sign_up) signs up through the same signUp().
import { noteUserIp } from "../../store/user-ips.ts";
import type { Deps } from "../../deps.ts";
import { Forbidden } from "../../lib/errors.ts";
import type { Viewer } from "../auth/viewer.ts";
import { issueToken, type IssuedToken } from "../oauth/tokens.ts";
import { registrationMode } from "../instance/registrations.ts";
import { checkNewAccount, insertLocalAccount, prepareLocalAccount, type PreparedAccount } from "./create.ts";
import { Problems, charLength, tooLong } from "./validation.ts";
import { normaliseEmail } from "./email.ts";
import { emailSignUpVerdict } from "../admin/domain-blocks-email.ts";
import { canonicalEmailBlocked } from "../admin/canonical-email-blocks.ts";
import { ipBlockSeverityFor } from "../admin/ip-blocks.ts";
import { requestConfirmationMail } from "../auth/confirmation.ts";

export interface RegistrationInput {
  username?: string;
  email?: string;
  password?: string;
  agreement?: boolean | string;
  locale?: string;
  reason?: string;
}

/** Mastodon's invite request text limit. */
export const MAX_REASON_LENGTH = 420;
const LOCALE_PATTERN = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i;
const ACCEPTED = new Set<unknown>([true, "true", "1"]);

/** POST /api/v1/accounts; the sign-up is recorded with `clientIp` (Admin::Account `ips`). */
export async function registerAccount(deps: Deps, viewer: Viewer, input: RegistrationInput, clientIp: string | null = null): Promise<IssuedToken> {
  if (viewer.account || viewer.user) throw new Forbidden("This method requires an client credentials authentication");
  return signUp(deps, input, { appId: viewer.app.id, clientIp }, (prepared) =>
    issueToken(deps.store, viewer.app.id, prepared.account.id, [...viewer.app.scopes]));
}

/**
 * A sign-up, through the API (registerAccount) or the web form (/auth/sign_up): the registration mode, the
 * checks, e-mail domain blocks and approval; the account, its sign-up address, the confirmation mail when one
 * is required and whatever `inWrite` adds (the API's token) in one transaction.
 */
export async function signUp<T>(
  deps: Deps,
  input: RegistrationInput,
  origin: { appId: string | null; clientIp: string | null },
  inWrite: (prepared: PreparedAccount) => T,
): Promise<T> {
  const mode = registrationMode(deps);
  if (mode === "closed") throw new Forbidden("Forbidden");
  // IP blocks (domain/admin/ip-blocks.ts): refused as Mastodon's check_enabled_registrations does, or held.
  const ipSeverity = ipBlockSeverityFor(deps.store, origin.clientIp);
  if (ipSeverity === "sign_up_block" || ipSeverity === "no_access") throw new Forbidden();

  const candidate = {
    username: input.username ?? "",
    email: input.email ?? "",
    password: input.password ?? "",
    locale: input.locale || "en",
    reason: input.reason?.trim() || null,
    approved: mode === "open" && ipSeverity !== "sign_up_requires_approval",
    // With confirmation required, sign-ups stay unconfirmed until the mailed link is opened (domain/auth).
    confirmed: !deps.config.requireEmailConfirmation,
    createdByAppId: origin.appId,
  };
  const problems = new Problems();
  checkNewAccount(deps, candidate, problems);
  // E-mail domain blocks (domain/admin): refused, or held for approval.
  const verdict = problems.has("email") ? "allowed" : await emailSignUpVerdict(deps, normaliseEmail(candidate.email));
  if (verdict === "blocked") problems.add("email", "ERR_BLOCKED", "uses a disallowed e-mail provider");
  // A canonical e-mail block answers as Mastodon's validator does, without saying the address is blocked.
  else if (!problems.has("email") && canonicalEmailBlocked(deps.store, candidate.email)) {
    problems.add("email", "ERR_TAKEN", "has already been taken");
  }
  if (verdict === "approval") candidate.approved = false;
  if (!ACCEPTED.has(input.agreement)) problems.add("agreement", "ERR_ACCEPTED", "must be accepted");
  if (input.locale && !LOCALE_PATTERN.test(input.locale)) problems.add("locale", "ERR_INCLUSION", "is not included in the list");
  if (candidate.reason && charLength(candidate.reason) > MAX_REASON_LENGTH) problems.add("reason", "ERR_TOO_LONG", tooLong(MAX_REASON_LENGTH));
  problems.throwIfAny();

  const prepared = await prepareLocalAccount(deps, candidate);
  return deps.store.write(() => {
    insertLocalAccount(deps, prepared);
    if (origin.clientIp) noteUserIp(deps.store, prepared.account.id, origin.clientIp, Date.now());
    if (prepared.user.confirmedAt === null) requestConfirmationMail(deps, prepared.user);
    return inWrite(prepared);
  });
}
