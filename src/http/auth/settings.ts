// GET/POST /settings/profile (docs/web.md): the signed-in person's display name, bio and profile flags, saved
// through update_credentials' domain function. Without a session the page sends the browser to sign in.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { checkSettingsSession, updateProfileFromSettings, type ProfileForm } from "../../domain/auth/settings.ts";
import { ACCOUNT_LIMITS } from "../../domain/limits.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { browserOf, postedBrowser, type Browser } from "./browser.ts";
import { e, field, form, htmlPage, invalidFormPage, links, paragraph, seeOther } from "./layout.ts";
import { CSRF_FIELD, Field, Html, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { settingsNav } from "./settings-page.ts";
import type { AccountRecord } from "../../model/accounts.ts";

const TITLE = "Edit profile";

function checkbox(name: string, label: string, checked: boolean, hint: string): string {
  return `<label class="check"><input type="checkbox" name="${name}" value="1"${checked ? " checked" : ""}> ${e(label)}</label><p class="muted">${e(hint)}</p>`;
}

export const settingsRoutes = (deps: Deps) => {
  const site = deps.config.instanceTitle;

  const profilePage = (browser: Browser, status: number, account: AccountRecord, values: ProfileForm | null, errors: ErrorDetails = {}, message = "") => {
    const value = (name: keyof ProfileForm, current: string) => (values ? (values[name] ?? "") : current);
    const flag = (name: keyof ProfileForm, current: boolean) => (values ? values[name] === "1" : current);
    const noteErrors = errors.note ?? [];
    const fields = [
      field({ name: "display_name", label: "Display name", value: value("display_name", account.displayName), required: false, maxLength: ACCOUNT_LIMITS.maxDisplayNameLength, errors }),
      `<label for="note">Bio</label>
<textarea id="note" name="note" rows="5"${noteErrors.length ? ' aria-invalid="true" aria-describedby="note-error"' : ""}>${e(value("note", account.noteSource))}</textarea>${noteErrors.length ? `<p class="field-error" id="note-error">Bio ${e(noteErrors.map((p) => p.description).join("; "))}</p>` : ""}
<p class="muted">At most ${ACCOUNT_LIMITS.maxNoteLength} characters; links count as 23.</p>`,
      checkbox("locked", "Require follow requests", flag("locked", account.locked), "You approve each new follower."),
      checkbox("bot", "This is a bot account", flag("bot", account.bot), "The account mostly acts on its own."),
      checkbox("discoverable", "Suggest the account to others", flag("discoverable", account.discoverable), "It may appear in follow suggestions and the directory."),
    ].join("\n");
    const notice = message ? paragraph(message, status === 200 ? "notice" : "error") : "";
    return htmlPage(site, status, TITLE, `${settingsNav("/settings/profile", browser.session?.user.role ?? "User")}<p>Signed in as <strong>@${e(account.username)}</strong>.</p>${notice}${form("/settings/profile", browser.csrf, fields, "Save changes")}<p><a href="/auth/sign_in">Account</a></p>`, browser.cookies);
  };

  const refused = (error: ApiError) => htmlPage(site, 403, TITLE, `${paragraph(`${error.message}.`, "error")}${links([["/auth/sign_in", "Sign in"]])}`);

  return new Elysia({ name: "auth-settings-routes" })
    .use(cachePlugin)
    .get("/settings/profile", async ({ request }) => {
      const browser = await browserOf(deps, request);
      if (!browser.session) return seeOther("/auth/sign_in", browser.cookies);
      try {
        checkSettingsSession(browser.session);
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return refused(error);
        throw error;
      }
      return profilePage(browser, 200, browser.session.account, null);
    }, {
      response: {
        200: Html("the profile form"),
        ...SETTINGS_PAGE_REFUSALS,
      },
      detail: { summary: "Profile settings page (HTML)", tags: ["web"] },
    })
    .post("/settings/profile", async ({ body, request }) => {
      const browser = await postedBrowser(deps, request, body.authenticity_token);
      if (!browser) return invalidFormPage(site);
      if (!browser.session) return seeOther("/auth/sign_in");
      try {
        const account = await updateProfileFromSettings(deps, browser.session, body);
        return profilePage(browser, 200, account, null, {}, "Your profile has been saved.");
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.status === 403) return refused(error);
        if (error.status !== 422) throw error;
        return profilePage(browser, 422, browser.session.account, body, (error.extra.details ?? {}) as ErrorDetails, error.message);
      }
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        display_name: Field(`At most ${ACCOUNT_LIMITS.maxDisplayNameLength} characters`),
        note: Field(`Bio, plain text; at most ${ACCOUNT_LIMITS.maxNoteLength} characters`),
        locked: Field('"1" when ticked: follow requests required'),
        bot: Field('"1" when ticked: a bot account'),
        discoverable: Field('"1" when ticked: suggested to others'),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("saved: the form again with a notice"),
        ...SETTINGS_FORM_REFUSALS,
        422: Html("the form again, with the problems"),
      },
      detail: { summary: "Save profile settings (form); the same rules as PATCH /api/v1/accounts/update_credentials", tags: ["web"] },
    });
};
