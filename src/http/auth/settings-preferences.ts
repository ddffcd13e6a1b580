// GET/POST /settings/preferences (docs/web.md): posting defaults, saved as update_credentials' source[…].
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { updatePreferencesFromSettings, type PreferencesForm } from "../../domain/auth/settings-preferences.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "./layout.ts";
import { CSRF_FIELD, Field, Html, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";
import type { UserRecord } from "../../model/accounts.ts";

const PATH = "/settings/preferences";
const TITLE = "Preferences";
const VISIBILITIES = [
  ["public", "Public: everyone, on public timelines"],
  ["unlisted", "Unlisted: everyone, off public timelines"],
  ["private", "Followers only"],
] as const;

export const settingsPreferencesRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, user: UserRecord, values: PreferencesForm | null, errors: ErrorDetails = {}, notice = "") => {
    const privacy = values ? (values.privacy ?? "") : user.privacy;
    const sensitive = values ? values.sensitive === "1" : user.sensitive;
    const privacyErrors = errors["source.privacy"] ?? [];
    const options = VISIBILITIES.map(([value, label]) => `<option value="${value}"${value === privacy ? " selected" : ""}>${e(label)}</option>`).join("");
    const fields = [
      `<label for="privacy">Default visibility of new posts</label>
<select id="privacy" name="privacy"${privacyErrors.length ? ' aria-invalid="true" aria-describedby="privacy-error"' : ""}>${options}</select>${privacyErrors.length ? `<p class="field-error" id="privacy-error">Visibility ${e(privacyErrors.map((p) => p.description).join("; "))}</p>` : ""}`,
      `<label class="check"><input type="checkbox" name="sensitive" value="1"${sensitive ? " checked" : ""}> Always mark media as sensitive</label>`,
      field({ name: "language", label: "Language of new posts", value: values ? (values.language ?? "") : (user.language ?? ""), required: false, maxLength: 3, errors, errorKey: "source.language", hint: "An ISO 639 code such as en or de; empty for none." }),
    ].join("\n");
    return settingsPage(deps, signedIn, status, PATH, TITLE, form(PATH, signedIn.browser.csrf, fields, "Save changes"), notice);
  };

  return new Elysia({ name: "auth-settings-preferences-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      if (signedIn instanceof Response) return signedIn;
      return page(signedIn, 200, signedIn.session.user, null);
    }, {
      response: { 200: Html("the preferences form"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Posting preferences page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      try {
        const user = await updatePreferencesFromSettings(deps, signedIn.session, body);
        return page(signedIn, 200, user, null, {}, "Your preferences have been saved.");
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, signedIn.session.user, body, (error.extra.details ?? {}) as ErrorDetails, error.message);
      }
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        privacy: Field("Default visibility: public, unlisted or private"),
        sensitive: Field('"1" when ticked: media marked sensitive by default'),
        language: Field("ISO 639 code of new posts, or empty"),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("saved: the form again with a notice"),
        ...SETTINGS_FORM_REFUSALS,
        422: Html("the form again, with the problems"),
      },
      detail: { summary: "Save posting preferences (form); the rules of update_credentials' source[…]", tags: ["web"] },
    });
};
