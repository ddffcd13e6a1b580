// GET /admin/rules, POST /admin/rules, POST /admin/rules/:id/delete (docs/admin.md, "Pages"): the server's rules,
// added and removed through the functions behind `warren rules` (manage_rules).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { addRule, deleteRule, instanceRules } from "../../domain/instance/rules.ts";
import { RULE_LIMITS } from "../../domain/limits.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, IdParams, openAdmin, postAdmin, SECTIONS, sentence, type Staffed } from "./page.ts";

const SECTION = SECTIONS.rules;
const CreateBody = t.Object({
  ...CSRF_FIELD,
  text: Field(`The rule (at most ${RULE_LIMITS.maxTextLength} characters)`),
  hint: Field("An explanation shown under it"),
});

export const adminRulePages = (deps: Deps) => {
  const page = (staffed: Staffed, status: number, notice = "", values: typeof CreateBody.static = {}) => {
    const items = instanceRules(deps).map((rule, index) => {
      const remove = form(`${SECTION.path}/${publicId(rule.id)}/delete`, staffed.browser.csrf, "", `Remove rule ${index + 1}`);
      return `<li><p><strong>${e(rule.text)}</strong></p>${rule.hint ? `<p class="muted">${e(rule.hint)}</p>` : ""}${remove}</li>`;
    });
    const fields = `${field({ name: "text", label: "Rule", value: values.text, maxLength: RULE_LIMITS.maxTextLength })}\n${field({ name: "hint", label: "Explanation (optional)", value: values.hint, required: false })}`;
    const listed = items.length ? `<ol>${items.join("\n")}</ol>` : "<p>The server has no rules yet.</p>";
    return adminPage(deps, staffed, status, SECTION, `${listed}<h2>Add a rule</h2>${form(SECTION.path, staffed.browser.csrf, fields, "Add the rule")}`, notice);
  };

  return new Elysia({ name: "admin-rule-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the server's rules and the form to add one"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Server rules page (HTML; manage_rules)", tags: ["web"] },
    })
    .post(SECTION.path, async ({ body, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => addRule(deps, body.text ?? "", body.hint ?? ""));
      return "error" in done ? page(staffed, done.error.status, sentence(done.error), body) : page(staffed, 200, "The rule has been added.");
    }, {
      body: CreateBody,
      transform: onlyStringBody,
      response: { 200: Html("the rules again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Add a server rule (form; as `warren rules add`)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/delete`, async ({ body, params, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => deleteRule(deps, params.id));
      return "error" in done ? page(staffed, done.error.status, sentence(done.error)) : page(staffed, 200, "The rule has been removed.");
    }, {
      params: IdParams,
      body: t.Object({ ...CSRF_FIELD }),
      transform: onlyStringBody,
      response: { 200: Html("the rules again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Remove a server rule (form; as `warren rules remove`)", tags: ["web"] },
    });
};
