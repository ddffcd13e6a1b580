// GET/POST /settings/import (docs/web.md): upload a following, blocked or muted accounts CSV file, merged
// with or replacing the current list; the work is a background job whose progress the page shows.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { IMPORT_LIMITS } from "../../domain/accounts/import-csv.ts";
import { recentImports, startImport } from "../../domain/accounts/import.ts";
import { ApiError } from "../../lib/errors.ts";
import { UploadedFile } from "../../lib/uploaded-file.ts";
import { uploadLimit } from "../plugins/body-limits.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e } from "./layout.ts";
import { CSRF_FIELD, Field, Html, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS } from "./schemas.ts";
import { openSettings, postSettings, sessionBeforeBody, settingsPage, type SignedIn } from "./settings-page.ts";
import { releaseUploads } from "../plugins/params.ts";
import type { ImportRecord } from "../../model/accounts.ts";

const PATH = "/settings/import";
const TITLE = "Import";
const TYPES = [["following", "Accounts to follow (following_accounts.csv)"], ["blocking", "Accounts to block (blocked_accounts.csv)"], ["muting", "Accounts to mute (muted_accounts.csv)"]] as const;
const MODES = [["merge", "Merge: add to what you have"], ["overwrite", "Overwrite: also undo what the file does not list"]] as const;

const radios = (name: string, legend: string, options: readonly (readonly [string, string])[], chosen: string) =>
  `<fieldset><legend>${e(legend)}</legend>${options.map(([value, label]) => `<label class="check"><input type="radio" name="${name}" value="${value}"${value === chosen ? " checked" : ""} required> ${e(label)}</label>`).join("")}</fieldset>`;

function progress(record: ImportRecord): string {
  const when = new Date(record.createdAt).toISOString().replace("T", " ").slice(0, 16);
  const state = record.finishedAt !== null ? "done" : "in progress";
  return `<li>${e(when)} UTC, ${e(record.type)} (${e(record.mode)}): ${state}, ${record.processed} of ${record.total} processed, ${record.failures} failed</li>`;
}

/** Keeps the string fields and the uploaded file; anything else is dropped before validation. */
function formFields(ctx: { body: unknown }) {
  const out: Record<string, unknown> = {};
  if (ctx.body && typeof ctx.body === "object") {
    for (const [key, value] of Object.entries(ctx.body)) {
      if (typeof value === "string" || (key === "data" && value instanceof UploadedFile)) out[key] = value;
    }
  }
  ctx.body = out;
}

export const settingsImportRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, values: { type?: string; mode?: string } = {}, notice = "") => {
    const imports = recentImports(deps, signedIn.session.account.id);
    const list = imports.length ? `<h2>Recent imports</h2><ul>${imports.map(progress).join("")}</ul><p class="muted">Reload the page to see the progress.</p>` : "";
    const inner = [
      radios("type", "What the file lists", TYPES, values.type ?? "following"),
      radios("mode", "What to do with your current list", MODES, values.mode ?? "merge"),
      `<label for="data">CSV file</label>\n<input type="file" id="data" name="data" accept=".csv,text/csv" required>`,
      `<p class="muted">As exported by Mastodon or <a href="/settings/export">Export</a>: at most ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB and ${IMPORT_LIMITS.maxRows} accounts, UTF-8.</p>`,
    ].join("\n");
    const upload = `<form method="post" action="${PATH}" enctype="multipart/form-data"><input type="hidden" name="authenticity_token" value="${e(signedIn.browser.csrf)}">
${inner}
<button type="submit">Upload</button></form>`;
    return settingsPage(deps, signedIn, status, PATH, TITLE, `${upload}${list}`, notice);
  };

  return new Elysia({ name: "auth-settings-import-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the upload form and the recent imports' progress"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Import page (HTML)", tags: ["web"] },
    })
    .post(PATH, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      try {
        const record = await startImport(deps, signedIn.session, body);
        return page(signedIn, 200, body, `The file lists ${record.total} accounts; the import has started.`);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return page(signedIn, 422, body, `${error.message}.`);
      }
    }, {
      body: uploadLimit(
        t.Object({
          ...CSRF_FIELD,
          type: Field("following, blocking or muting"),
          mode: Field("merge or overwrite"),
          data: t.Optional(t.Any({ description: `The CSV file (multipart), at most ${IMPORT_LIMITS.maxBytes} bytes and ${IMPORT_LIMITS.maxRows} accounts, UTF-8` })),
        }),
        IMPORT_LIMITS.maxBytes + 64 * 1024,
      ),
      // No live session: refused before a byte of the (up to 2 MB) body is read.
      transform: [sessionBeforeBody(deps, TITLE), formFields],
      afterHandle: releaseUploads,
      response: {
        200: Html("started: the page with the new import's progress"),
        ...SETTINGS_FORM_REFUSALS,
        422: Html("the form again: no file, a wrong type or mode, or a file refused (size, lines, encoding, header)"),
      },
      detail: { summary: "Upload an import file (multipart form); applied by a background job", tags: ["web"] },
    });
};
