// GET/POST /settings/migration, POST /settings/migration/cancel (docs/web.md): move this account to another
// one (Mastodon's page and fields, `account_migration[acct]`, `account_migration[current_password]`), or
// cancel the redirect. The password check counts against the sign-in limits (plugins/rate-limits.ts); the
// rules are domain/accounts/migration.ts's.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { fullAcct } from "../../domain/accounts/aliases.ts";
import { movedTargetOf } from "../../domain/accounts/read.ts";
import { cancelRedirect, cooldownEndsAt, moveAccount } from "../../domain/accounts/migration.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "./layout.ts";
import { CSRF_FIELD, Field, Html, PASSWORD_FORM_THROTTLED, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";
import { scopedStringBody } from "./settings-aliases.ts";

const PATH = "/settings/migration";
const TITLE = "Move to a different account";

export const settingsMigrationRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, errors: ErrorDetails = {}, notice = "", typed = "") => {
    const account = signedIn.session.account;
    const csrf = signedIn.browser.csrf;
    const target = movedTargetOf(deps, account);
    const incoming = `<p>To move from another account to this one, <a href="/settings/aliases">create an alias</a> first.</p>`;
    if (target) {
      const moved = `<p>This account redirects to <strong>@${e(fullAcct(deps, target))}</strong>. Its profile says so, it cannot post, and its followers have been moved.</p>`;
      return settingsPage(deps, signedIn, status, PATH, TITLE, `${moved}${form(`${PATH}/cancel`, csrf, "", "Cancel redirect")}${incoming}`, notice);
    }
    const ends = cooldownEndsAt(account);
    const cooldown = ends ? `<p class="muted">You moved recently: a new move is possible from ${new Date(ends).toISOString().slice(0, 10)}.</p>` : "";
    const fields = [
      `<p>Your followers here and elsewhere will be moved to the new account, and this one will redirect to it. Your posts stay here. The new account must list this one (${e(account.uri)}) as an alias first.</p>`,
      field({ name: "account_migration[acct]", errorKey: "acct", label: "Handle of the new account", value: typed, errors, hint: "user@example.com" }),
      field({ name: "account_migration[current_password]", errorKey: "current_password", label: "Current password", type: "password", autocomplete: "current-password", errors }),
    ].join("\n");
    return settingsPage(deps, signedIn, status, PATH, TITLE, `${cooldown}${form(PATH, csrf, fields, "Move followers")}${incoming}`, notice);
  };

  return new Elysia({ name: "auth-settings-migration-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the move form, or where the account redirects"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Account migration page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      const input = body.account_migration;
      try {
        signedIn.session.account = await moveAccount(deps, signedIn.session, input);
        return page(signedIn, 200, {}, "The account has moved: its followers are being moved to the new one.");
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, (error.extra.details ?? {}) as ErrorDetails, error.message, input.acct ?? "");
      }
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        account_migration: t.Object({ acct: Field("Handle of the new account, user@domain"), current_password: Field("The password in use") }),
      }),
      transform: scopedStringBody("account_migration"),
      response: {
        200: Html("moved: the page with the redirect and a notice"),
        ...SETTINGS_FORM_REFUSALS,
        ...PASSWORD_FORM_THROTTLED,
        422: Html("the form again, with the problem (password, not resolvable, no alias naming this account, cool-down)"),
      },
      detail: { summary: "Move the account to another (form): sends Move, sets movedTo, moves the followers", tags: ["web"] },
    })
    .post(`${PATH}/cancel`, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      signedIn.session.account = await cancelRedirect(deps, signedIn.session);
      return page(signedIn, 200, {}, "The redirect has been cancelled.");
    }, {
      body: t.Object({ ...CSRF_FIELD }),
      transform: onlyStringBody,
      response: { 200: Html("the move form again with a notice"), ...SETTINGS_FORM_REFUSALS },
      detail: { summary: "Cancel the account's redirect (form)", tags: ["web"] },
    });
};
