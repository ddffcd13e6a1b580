// GET/POST /admin/registrations (docs/admin.md, "Pages"): who may sign up (open, with approval, closed), read
// and saved through the functions behind `warren settings registrations` (manage_settings).
import { Elysia, t } from "elysia";
import type { RegistrationMode } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { registrationMode, setRegistrationMode } from "../../domain/instance/registrations.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, openAdmin, postAdmin, SECTIONS, type Staffed } from "./page.ts";

const SECTION = SECTIONS.registrations;
const MODES: [RegistrationMode, string][] = [
  ["open", "Open: anyone can sign up"],
  ["approval", "Approval: the staff approve each sign-up"],
  ["closed", "Closed: nobody can sign up"],
];

export const adminRegistrationPages = (deps: Deps) => {
  const page = (staffed: Staffed, status: number, notice = "") => {
    const current = registrationMode(deps);
    const radios = MODES.map(([mode, text]) => `<label class="check"><input type="radio" name="mode" value="${mode}"${mode === current ? " checked" : ""}> ${e(text)}</label>`).join("\n");
    const fields = `<fieldset><legend>Who may sign up</legend>\n${radios}</fieldset>`;
    return adminPage(deps, staffed, status, SECTION, form(SECTION.path, staffed.browser.csrf, fields, "Save"), notice);
  };

  return new Elysia({ name: "admin-registration-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the registrations mode form"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Registrations mode page (HTML; manage_settings)", tags: ["web"] },
    })
    .post(SECTION.path, async ({ body, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const mode = MODES.find(([m]) => m === body.mode)?.[0];
      if (!mode) return page(staffed, 422, "Choose open, approval or closed.");
      await setRegistrationMode(deps, mode);
      return page(staffed, 200, `Registrations are now ${mode}.`);
    }, {
      body: t.Object({ ...CSRF_FIELD, mode: Field("open, approval or closed") }),
      transform: onlyStringBody,
      response: { 200: Html("the form again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Set the registrations mode (form; as `warren settings registrations`)", tags: ["web"] },
    });
};
