// GET /settings/export and its downloads /settings/export/{following,blocked,muted}_accounts.csv
// (docs/web.md): Mastodon's CSV files of the signed-in user's follows, blocks and mutes.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { EXPORT_KINDS, exportCsv, type ExportKind } from "../../domain/accounts/export.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { Html, SETTINGS_PAGE_REFUSALS } from "./schemas.ts";
import { openSettings, settingsPage } from "./settings-page.ts";

const PATH = "/settings/export";
const TITLE = "Export";
const LABELS: Record<ExportKind, string> = {
  following_accounts: "Accounts you follow",
  blocked_accounts: "Accounts you block",
  muted_accounts: "Accounts you mute",
};

export const settingsExportRoutes = (deps: Deps) =>
  new Elysia({ name: "auth-settings-export-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      if (signedIn instanceof Response) return signedIn;
      const items = EXPORT_KINDS.map((kind) => `<li><a href="${PATH}/${kind}.csv" download>${LABELS[kind]}</a> (${kind}.csv)</li>`).join("");
      const body = `<p>Download your lists as CSV files, which Mastodon servers (and <a href="/settings/import">Import</a>) read back.</p><ul>${items}</ul>`;
      return settingsPage(deps, signedIn, 200, PATH, TITLE, body);
    }, {
      response: { 200: Html("links to the CSV files"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Export page (HTML)", tags: ["web"] },
    })
    .get(`${PATH}/:file`, async ({ params, request }) => {
      const kind = EXPORT_KINDS.find((k) => `${k}.csv` === params.file);
      const signedIn = await openSettings(deps, request, TITLE);
      if (signedIn instanceof Response) return signedIn;
      if (!kind) return settingsPage(deps, signedIn, 404, PATH, TITLE, "<p>There is no such file.</p>");
      const csv = exportCsv(deps.store, deps.config, kind, signedIn.session.account.id);
      return new Response(csv, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${kind}.csv"`,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    }, {
      params: t.Object({ file: t.String({ description: "following_accounts.csv, blocked_accounts.csv or muted_accounts.csv", maxLength: 64 }) }),
      response: {
        200: t.String({ description: "CSV file (text/csv), sent as an attachment" }),
        ...SETTINGS_PAGE_REFUSALS,
        404: Html("no such file"),
      },
      detail: { summary: "Download an export (CSV)", tags: ["web"] },
    });
