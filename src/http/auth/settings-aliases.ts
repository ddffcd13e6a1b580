// GET/POST /settings/aliases, POST /settings/aliases/remove (docs/web.md): the accounts this one is also
// known as, so that one of them may move here (Mastodon's page and field, `account_alias[acct]`). The address
// is resolved when added (domain/accounts/aliases.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { addAlias, aliasesOf, fullAcct, removeAlias } from "../../domain/accounts/aliases.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { onlyStrings } from "../oauth/request.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "./layout.ts";
import { CSRF_FIELD, Field, Html, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";

const PATH = "/settings/aliases";
const TITLE = "Account aliases";

/** Rails-style `scope[field]` form names arrive nested (plugins/params.ts): the scope's string fields only,
 * beside the CSRF token, so anything else reads as missing. */
export const scopedStringBody = (scope: string) => (ctx: { body: unknown }) => {
  const bag = (ctx.body ?? {}) as Record<string, unknown>;
  ctx.body = { ...onlyStrings(bag), [scope]: onlyStrings(Object.hasOwn(bag, scope) ? bag[scope] : null) };
};

export const settingsAliasesRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, errors: ErrorDetails = {}, notice = "", typed = "") => {
    const csrf = signedIn.browser.csrf;
    const aliases = aliasesOf(deps, signedIn.session.account);
    const item = (alias: { uri: string; acct: string }) =>
      `<li><strong>${e(alias.acct)}</strong> ${form(`${PATH}/remove`, csrf, `<input type="hidden" name="alias" value="${e(alias.uri)}">`, "Remove")}</li>`;
    const list = aliases.length ? `<ul>${aliases.map(item).join("\n")}</ul>` : `<p class="muted">No aliases yet.</p>`;
    const here = fullAcct(deps, signedIn.session.account);
    const intro = `<p>To move from another account to this one (@${e(here)}), add the other account here first; then start the move from the other account.</p>`;
    const add = form(PATH, csrf, field({ name: "account_alias[acct]", errorKey: "acct", label: "Handle of the old account", value: typed, errors, hint: "user@example.com" }), "Create alias");
    return settingsPage(deps, signedIn, status, PATH, TITLE, `${intro}${add}<h2>Aliases</h2>${list}`, notice);
  };

  return new Elysia({ name: "auth-settings-aliases-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the account's aliases and the form adding one"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Account aliases page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      const acct = body.account_alias.acct ?? "";
      try {
        signedIn.session.account = await addAlias(deps, signedIn.session, acct);
        return page(signedIn, 200, {}, "The alias has been added.");
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, (error.extra.details ?? {}) as ErrorDetails, error.message, acct);
      }
    }, {
      body: t.Object({ ...CSRF_FIELD, account_alias: t.Object({ acct: Field("Handle of the old account, user@domain") }) }),
      transform: scopedStringBody("account_alias"),
      response: {
        200: Html("added: the list again with a notice"),
        ...SETTINGS_FORM_REFUSALS,
        422: Html("the page again, with the problem (not resolvable, this account, already listed, too many)"),
      },
      detail: { summary: "Add an account alias (form): sets the actor's alsoKnownAs", tags: ["web"] },
    })
    .post(`${PATH}/remove`, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      signedIn.session.account = await removeAlias(deps, signedIn.session, body.alias ?? "");
      return page(signedIn, 200, {}, "The alias has been removed.");
    }, {
      body: t.Object({ ...CSRF_FIELD, alias: Field("Actor URI of the alias to remove, from the list") }),
      transform: onlyStringBody,
      response: { 200: Html("the list again with a notice"), ...SETTINGS_FORM_REFUSALS },
      detail: { summary: "Remove an account alias (form)", tags: ["web"] },
    });
};
