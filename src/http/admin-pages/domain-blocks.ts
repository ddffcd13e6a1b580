// GET /admin/domain-blocks, POST /admin/domain-blocks, POST /admin/domain-blocks/:id/delete (docs/admin.md,
// "Pages"): the instance domain blocks, created and lifted through the admin API's functions (createDomainBlock,
// deleteDomainBlock: manage_federation), so the severities, the "already stricter" refusal and what a block
// does to the domain's accounts are the API's.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { createDomainBlock, deleteDomainBlock, listDomainBlocks, MAX_COMMENT_LENGTH } from "../../domain/admin/domain-blocks.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, field, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, checkbox, IdParams, openAdmin, postAdmin, SECTIONS, select, sentence, textarea, type Staffed } from "./page.ts";
import type { DomainBlockRecord } from "../../model/moderation.ts";

const SECTION = SECTIONS.domainBlocks;
const SEVERITY_TEXT = { silence: "Limit", suspend: "Suspend", noop: "None" } as const;

const CreateBody = t.Object({
  ...CSRF_FIELD,
  domain: Field("The domain to block (its subdomains too)"),
  severity: Field("silence (the default), suspend or noop"),
  reject_media: Field('"1" when ticked: its media files are not fetched'),
  reject_reports: Field('"1" when ticked: its reports are ignored'),
  private_comment: Field(`A note for the staff (at most ${MAX_COMMENT_LENGTH} characters)`),
  public_comment: Field(`Shown publicly with the block (at most ${MAX_COMMENT_LENGTH} characters)`),
  obfuscate: Field('"1" when ticked: the domain is partly hidden in the public list'),
});

export const adminDomainBlockPages = (deps: Deps) => {
  const item = (staffed: Staffed, block: DomainBlockRecord) => {
    const extras = [block.rejectMedia ? "media rejected" : "", block.rejectReports ? "reports rejected" : "", block.obfuscate ? "obfuscated" : ""].filter(Boolean);
    const comment = block.privateComment ? `<p class="muted">${e(block.privateComment)}</p>` : "";
    const remove = form(`${SECTION.path}/${publicId(block.id)}/delete`, staffed.browser.csrf, "", `Lift the block of ${block.domain}`);
    return `<li><h2>${e(block.domain)}</h2><p>${SEVERITY_TEXT[block.severity]}${extras.length ? `; ${extras.join(", ")}` : ""}.</p>${comment}${remove}</li>`;
  };
  const page = (staffed: Staffed, status: number, notice = "", values: typeof CreateBody.static = {}) => {
    const blocks = listDomainBlocks(deps.store);
    const fields = [
      field({ name: "domain", label: "Domain", value: values.domain, maxLength: 253 }),
      select("severity", "Severity", [["silence", "Limit"], ["suspend", "Suspend"], ["noop", "None (only the options below)"]], values.severity ?? "silence"),
      checkbox("reject_media", "Reject media files", values.reject_media === "1"),
      checkbox("reject_reports", "Reject reports", values.reject_reports === "1"),
      textarea("private_comment", "Private comment", MAX_COMMENT_LENGTH, values.private_comment),
      textarea("public_comment", "Public comment", MAX_COMMENT_LENGTH, values.public_comment),
      checkbox("obfuscate", "Obfuscate the domain in the public list", values.obfuscate === "1"),
    ].join("\n");
    const listed = blocks.length ? `<ul>${blocks.map((block) => item(staffed, block)).join("\n")}</ul>` : "<p>No domain is blocked.</p>";
    return adminPage(deps, staffed, status, SECTION, `<h2>Block a domain</h2>${form(SECTION.path, staffed.browser.csrf, fields, "Block")}<h2>Blocked domains</h2>${listed}`, notice);
  };

  return new Elysia({ name: "admin-domain-block-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the blocked domains and the form to block one"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Instance domain blocks page (HTML; manage_federation)", tags: ["web"] },
    })
    .post(SECTION.path, async ({ body, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => createDomainBlock(deps, {
        domain: body.domain,
        severity: body.severity,
        rejectMedia: body.reject_media === "1",
        rejectReports: body.reject_reports === "1",
        privateComment: body.private_comment || null,
        publicComment: body.public_comment || null,
        obfuscate: body.obfuscate === "1",
      }));
      if ("error" in done) return page(staffed, done.error.status, sentence(done.error), body);
      return page(staffed, 200, `${done.ok.domain} is blocked.`);
    }, {
      body: CreateBody,
      transform: onlyStringBody,
      response: { 200: Html("the list again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Block a domain (form; as POST /api/v1/admin/domain_blocks)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/delete`, async ({ body, params, request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const done = await attempt(() => deleteDomainBlock(deps, params.id));
      if ("error" in done) return page(staffed, done.error.status, sentence(done.error));
      return page(staffed, 200, `The block of ${done.ok.domain} is lifted.`);
    }, {
      params: IdParams,
      body: t.Object({ ...CSRF_FIELD }),
      transform: onlyStringBody,
      response: { 200: Html("the list again with a notice"), ...ADMIN_FORM_ANSWERS },
      detail: { summary: "Lift a domain block (form; as DELETE /api/v1/admin/domain_blocks/:id)", tags: ["web"] },
    });
};
