// GET/POST /settings/password (docs/web.md): change the password given the current one. Every other session
// and every access token of the user ends; this browser's session stays.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { changePassword } from "../../domain/auth/password-change.ts";
import { ACCOUNT_LIMITS } from "../../domain/limits.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { field, form } from "./layout.ts";
import { CSRF_FIELD, Field, Html, PASSWORD_FORM_THROTTLED, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";

const PATH = "/settings/password";
const TITLE = "Change password";

export const settingsPasswordRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, errors: ErrorDetails = {}, notice = "") => {
    const fields = [
      field({ name: "current_password", label: "Current password", type: "password", autocomplete: "current-password", errors }),
      field({ name: "password", label: "New password", type: "password", autocomplete: "new-password", maxLength: ACCOUNT_LIMITS.maxPasswordLength, errors, hint: `${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters.` }),
      field({ name: "password_confirmation", label: "New password again", type: "password", autocomplete: "new-password", maxLength: ACCOUNT_LIMITS.maxPasswordLength, errors }),
      `<p class="muted">Every other browser and app signed in to this account will be signed out.</p>`,
    ].join("\n");
    return settingsPage(deps, signedIn, status, PATH, TITLE, form(PATH, signedIn.browser.csrf, fields, "Change password"), notice);
  };

  return new Elysia({ name: "auth-settings-password-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the password form"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Password change page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      try {
        await changePassword(deps, signedIn.session, body, signedIn.session.record.hash);
        return page(signedIn, 200, {}, "Your password has been changed. Other sessions and apps have been signed out.");
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, (error.extra.details ?? {}) as ErrorDetails, error.message);
      }
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        current_password: Field("The password in use"),
        password: Field(`The new password, ${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters`),
        password_confirmation: Field("The new password again"),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("changed: the form again with a notice; every other session has ended"),
        ...SETTINGS_FORM_REFUSALS,
        ...PASSWORD_FORM_THROTTLED,
        422: Html("the form again, with the problems (wrong current password, length, confirmation)"),
      },
      detail: { summary: "Change the password (form)", tags: ["web"] },
    });
};
