// TypeBox schemas of the /auth pages. Form fields are optional strings: anything else (arrays, nested values)
// is dropped before validation (onlyStrings), so a hostile form reads as missing fields and gets the page
// again with a message, never a JSON 422.
import { t } from "elysia";
import { onlyStrings } from "../oauth/request.ts";

export const Html = (description: string) => t.String({ description: `HTML page: ${description}` });
export const Redirect = (description: string) => t.String({ description: `Redirect (303): ${description}` });
export const Field = (description: string) => t.Optional(t.String({ description }));

export const CSRF_FIELD = { authenticity_token: Field("CSRF token from the page's form") };

/** What a settings page answers instead of itself: not signed in, or a login that may not use it yet. */
export const SETTINGS_PAGE_REFUSALS = {
  303: Redirect("not signed in: to /auth/sign_in"),
  403: Html("the login is unconfirmed or pending approval"),
};

/** The same for a settings form posted, where a failed CSRF check is a 403 too. */
export const SETTINGS_FORM_REFUSALS = {
  303: Redirect("not signed in: to /auth/sign_in"),
  403: Html("CSRF check failed, or the login is unconfirmed or pending approval"),
};

/** The settings forms that check the current password count against the sign-in limits (plugins/rate-limits.ts). */
export const PASSWORD_FORM_THROTTLED = { 429: Html("too many password attempts from this address or for this account (the sign-in limits)") };

export const onlyStringQuery = (ctx: { query: unknown }) => void (ctx.query = onlyStrings(ctx.query));
export const onlyStringBody = (ctx: { body: unknown }) => void (ctx.body = onlyStrings(ctx.body));
