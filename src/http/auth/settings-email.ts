// GET/POST /settings/email (docs/web.md): a new e-mail address, given the current password. It takes effect
// when the link mailed to it is opened; until then the current address stays in force.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { requestEmailChange, type EmailChangeForm } from "../../domain/auth/email-change.ts";
import { ACCOUNT_LIMITS } from "../../domain/limits.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "./layout.ts";
import { CSRF_FIELD, Field, Html, PASSWORD_FORM_THROTTLED, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";
import type { UserRecord } from "../../model/accounts.ts";

const PATH = "/settings/email";
const TITLE = "Change e-mail address";

export const settingsEmailRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, user: UserRecord, values: EmailChangeForm | null, errors: ErrorDetails = {}, notice = "") => {
    const pending = user.unconfirmedEmail
      ? `<p>Waiting for confirmation: <strong>${e(user.unconfirmedEmail)}</strong>. Open the link mailed to it; until then the current address stays in use.</p>`
      : "";
    const fields = [
      field({ name: "email", label: "New e-mail address", type: "email", autocomplete: "email", value: values?.email ?? "", maxLength: ACCOUNT_LIMITS.maxEmailLength, errors }),
      field({ name: "current_password", label: "Current password", type: "password", autocomplete: "current-password", errors }),
    ].join("\n");
    const body = `<p>Current address: <strong>${e(user.email)}</strong></p>${pending}${form(PATH, signedIn.browser.csrf, fields, "Change e-mail address")}`;
    return settingsPage(deps, signedIn, status, PATH, TITLE, body, notice);
  };

  return new Elysia({ name: "auth-settings-email-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200, signedIn.session.user, null);
    }, {
      response: { 200: Html("the e-mail form"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "E-mail address change page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      try {
        const user = await requestEmailChange(deps, signedIn.session, body);
        return page(signedIn, 200, user, null, {}, "A confirmation link has been sent to the new address.");
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, signedIn.session.user, body, (error.extra.details ?? {}) as ErrorDetails, error.message);
      }
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        email: Field("The new address"),
        current_password: Field("The password in use"),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("asked: the form again, the new address waiting for confirmation"),
        ...SETTINGS_FORM_REFUSALS,
        ...PASSWORD_FORM_THROTTLED,
        422: Html("the form again, with the problems (wrong password; address invalid, taken, blocked or unchanged)"),
      },
      detail: { summary: "Change the e-mail address (form); the new one must be confirmed", tags: ["web"] },
    });
};
