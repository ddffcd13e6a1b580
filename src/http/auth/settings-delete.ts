// GET/POST /settings/delete (docs/web.md): delete the account, given the current password and the username
// typed again. The data goes in a background job; the session ends at once.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { deleteOwnAccount } from "../../domain/accounts/delete-own.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { endSessionCookies } from "./browser.ts";
import { e, field, form, htmlPage, paragraph } from "./layout.ts";
import { CSRF_FIELD, Field, Html, PASSWORD_FORM_THROTTLED, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";

const PATH = "/settings/delete";
const TITLE = "Delete account";

export const settingsDeleteRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, errors: ErrorDetails = {}, notice = "") => {
    const username = signedIn.session.account.username;
    const fields = [
      `<p><strong>This cannot be undone.</strong> Your posts, follows, blocks, mutes, lists and profile will be removed from this server, and the username @${e(username)} will never be available again.</p>`,
      field({ name: "confirm_username", label: "Your username, to confirm", autocomplete: "off", errors, hint: `Type ${username}.` }),
      field({ name: "current_password", label: "Current password", type: "password", autocomplete: "current-password", errors }),
    ].join("\n");
    return settingsPage(deps, signedIn, status, PATH, TITLE, form(PATH, signedIn.browser.csrf, fields, "Delete my account"), notice);
  };

  return new Elysia({ name: "auth-settings-delete-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the deletion form"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Account deletion page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      try {
        await deleteOwnAccount(deps, signedIn.session, body);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, (error.extra.details ?? {}) as ErrorDetails, error.message);
      }
      const done = paragraph("Your account has been deleted. Its data is being removed; you have been signed out.", "notice");
      return htmlPage(deps.config.instanceTitle, 200, TITLE, done, [...signedIn.browser.cookies, ...endSessionCookies(deps)]);
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        confirm_username: Field("The account's username, typed as confirmation"),
        current_password: Field("The password in use"),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("deleted: signed out, the data being removed"),
        ...SETTINGS_FORM_REFUSALS,
        ...PASSWORD_FORM_THROTTLED,
        422: Html("the form again, with the problems (wrong password or username)"),
      },
      detail: { summary: "Delete the account (form)", tags: ["web"] },
    });
};
