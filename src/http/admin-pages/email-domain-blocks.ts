// GET /admin/email-domain-blocks, POST /admin/email-domain-blocks, POST /admin/email-domain-blocks/:id/delete
// (docs/admin.md, "Pages"): the e-mail domains refused at sign-up (or sent to approval), through the admin
// API's functions (createEmailDomainBlock, deleteEmailDomainBlock: manage_blocks).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { createEmailDomainBlock, deleteEmailDomainBlock, EMAIL_DOMAIN_BLOCKS_LIMIT, emailDomainBlocksPage } from "../../domain/admin/domain-blocks-email.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, checkbox, IdParams, openAdmin, postAdmin, SECTIONS, sentence, type Staffed } from "./page.ts";
import type { EmailDomainBlockRecord } from "../../model/moderation.ts";

const SECTION = SECTIONS.emailDomainBlocks;

const CreateBody = t.Object({
  ...CSRF_FIELD,
  domain: Field("The e-mail domain (its subdomains too)"),
  allow_with_approval: Field('"1" when ticked: sign-ups from it wait for approval instead of being refused'),
});

export const adminEmailDomainBlockPages = (deps: Deps) => {
  const item = (staffed: Staffed, block: EmailDomainBlockRecord) => {
    const remove = form(`${SECTION.path}/${publicId(block.id)}/delete`, staffed.browser.csrf, "", `Unblock ${block.domain}`);
    return `<li><h2>${e(block.domain)}</h2><p>${block.allowWithApproval ? "Sign-ups wait for approval." : "Sign-ups are refused."}</p>${remove}</li>`;
  };
  const page = (staffed: Staffed, status: number, notice = "", values: typeof CreateBody.static = {}) => {
    const blocks = emailDomainBlocksPage(deps.store, { limit: EMAIL_DOMAIN_BLOCKS_LIMIT * 2 });
    const fields = `${field({ name: "domain", label: "E-mail domain", value: values.domain, maxLength: 253 })}\n${checkbox("allow_with_approval", "Allow sign-ups with approval", values.allow_with_approval === "1")}`;
    const listed = blocks.length ? `<ul>${blocks.map((block) => item(staffed, block)).join("\n")}</ul>` : "<p>No e-mail domain is blocked.</p>";
    return adminPage(deps, staffed, status, SECTION, `<h2>Block an e-mail domain</h2>${form(SECTION.path, staffed.browser.csrf, fields, "Block")}<h2>Blocked e-mail domains</h2>${listed}`, notice);
  };

  return new Elysia({ name: "admin-email-domain-block-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the blocked e-mail domains and the form to block one"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "E-mail domain blocks page (HTML; manage_blocks)", tags: ["web"] },
    })
    .post(SECTION.path, async ({ body, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => createEmailDomainBlock(deps, { domain: body.domain, allowWithApproval: body.allow_with_approval === "1" }));
      if ("error" in done) return page(staffed, done.error.status, sentence(done.error), body);
      return page(staffed, 200, `${done.ok.domain} is blocked for sign-ups.`);
    }, {
      body: CreateBody,
      transform: onlyStringBody,
      response: { 200: Html("the list again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Block an e-mail domain (form; as POST /api/v1/admin/email_domain_blocks)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/delete`, async ({ body, params, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => deleteEmailDomainBlock(deps, params.id));
      if ("error" in done) return page(staffed, done.error.status, sentence(done.error));
      return page(staffed, 200, "The e-mail domain is unblocked.");
    }, {
      params: IdParams,
      body: t.Object({ ...CSRF_FIELD }),
      transform: onlyStringBody,
      response: { 200: Html("the list again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Unblock an e-mail domain (form; as DELETE /api/v1/admin/email_domain_blocks/:id)", tags: ["web"] },
    });
};
