// `bun scripts/check-arrows.ts`: the layering of src/ (docs/architecture.md) as a check. Parses the imports of
// every file under src/ (static, re-exports, dynamic `import()`, type-only ones too: a type is an arrow as
// well) and fails on a forbidden arrow between top-level folders, and on any file over MAX_LINES lines.
// tests/arrows.test.ts runs it, so the layering stays true.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const MAX_LINES = 400;

/** [from folder, to folder]: no file under src/<from> may import one under src/<to>. */
export const FORBIDDEN: ReadonlyArray<readonly [string, string]> = [
  ["domain", "federation"], // the domain reaches other servers through its Deps (`remote`), filled in by the composition root
  ["domain", "http"],
  ["jobs", "domain"], // src/jobs is infrastructure: its handler table comes from the composition root
  ["http", "store"], // http → domain → store
  ["entities", "http"],
  ["entities", "store"],
  ["media", "domain"],
];

/**
 * Arrows that still break the rules, being fixed by other work: "from-file -> to-file" (paths under src/).
 * Remove an entry once its import is gone; the check fails on an entry that no longer matches anything, so
 * the list only shrinks.
 */
export const ALLOWED: ReadonlySet<string> = new Set<string>([
  // entities → store
  "entities/account.ts -> store/records.ts",
  "entities/admin-domain-block.ts -> store/admin.ts",
  "entities/annual-report.ts -> store/annual-reports.ts",
  "entities/application.ts -> store/records.ts",
  "entities/custom-emoji.ts -> store/emojis.ts",
  "entities/custom-emoji.ts -> store/records.ts",
  "entities/filter.ts -> store/filters.ts",
  "entities/list.ts -> store/lists.ts",
  "entities/marker.ts -> store/markers.ts",
  "entities/media-attachment.ts -> store/media.ts",
  "entities/mention.ts -> store/records.ts",
  "entities/notification-policy.ts -> store/notification-policy.ts",
  "entities/preview-card.ts -> store/statuses-cards.ts",
  "entities/push-subscription.ts -> store/push.ts",
  "entities/report.ts -> store/reports.ts",
  "entities/scheduled-status.ts -> store/media.ts",
  "entities/scheduled-status.ts -> store/scheduled-statuses.ts",
  "entities/status-edit.ts -> store/records.ts",
  "entities/status.ts -> store/records.ts",
  "entities/userinfo.ts -> store/records.ts",
  "entities/webfinger.ts -> store/records.ts",
  // http → store
  "http/admin-pages/action-form.ts -> store/records.ts",
  "http/admin-pages/domain-blocks.ts -> store/admin.ts",
  "http/admin-pages/email-domain-blocks.ts -> store/admin.ts",
  "http/admin-pages/page.ts -> store/records.ts",
  "http/admin-pages/report-view.ts -> store/records.ts",
  "http/admin-pages/sections.ts -> store/records.ts",
  "http/api/v1/admin/domain-blocks.ts -> store/admin.ts",
  "http/api/v1/admin/reports.ts -> store/reports.ts",
  "http/api/v1/admin/trends.ts -> store/trends.ts",
  "http/api/v1/media.ts -> store/media.ts",
  "http/api/v1/push.ts -> store/push.ts",
  "http/api/v1/scheduled-statuses.ts -> store/scheduled-statuses.ts",
  "http/api/v1/statuses/people.ts -> store/records.ts",
  "http/api/v1/statuses/shared.ts -> store/filters.ts",
  "http/api/v1/statuses/shared.ts -> store/paging.ts",
  "http/api/v1/statuses/shared.ts -> store/records.ts",
  "http/api/v1/timelines.ts -> store/paging.ts",
  "http/auth/browser.ts -> store/records.ts",
  "http/auth/settings-email.ts -> store/records.ts",
  "http/auth/settings-import.ts -> store/imports.ts",
  "http/auth/settings-preferences.ts -> store/records.ts",
  "http/auth/settings-sessions.ts -> store/web-sessions.ts",
  "http/auth/settings.ts -> store/records.ts",
  "http/cache/rendered-statuses.ts -> store/records.ts",
  "http/cache/timeline-pages.ts -> store/filters.ts",
  "http/cache/timeline-pages.ts -> store/paging.ts",
  "http/cache/timeline-pages.ts -> store/records.ts",
  "http/instance/health.ts -> store/settings.ts",
  "http/metrics/collect.ts -> store/stats.ts",
  "http/plugins/paging.ts -> store/paging.ts",
  "http/present.ts -> store/filters.ts",
  "http/present.ts -> store/records.ts",
  "http/streaming/hub.ts -> store/conversations.ts",
  // media → domain
  "media/sniff.ts -> domain/limits.ts",
]);

/** Files allowed past MAX_LINES (none): add none, split the file instead. */
export const LONG_FILES: ReadonlySet<string> = new Set<string>([]);

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Comments out, strings kept: an import spelled in a comment is no arrow. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The top-level folder of a path under src/ ("" for files at its root). */
const folderOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : "");

export interface Arrow {
  from: string;
  to: string;
}

/** Every import between files of src/ (paths relative to src/). */
export function arrows(srcDir: string): Arrow[] {
  const found: Arrow[] = [];
  for (const file of sourceFiles(srcDir)) {
    const source = stripComments(readFileSync(file, "utf8"));
    for (const match of source.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2]!;
      if (!spec.startsWith(".")) continue;
      found.push({ from: relative(srcDir, file), to: relative(srcDir, resolve(dirname(file), spec)) });
    }
  }
  return found;
}

/** What breaks the rules: forbidden arrows not allowed, allow-list entries that match nothing, long files. */
export function problems(srcDir: string, allowed: ReadonlySet<string> = ALLOWED): string[] {
  const out: string[] = [];
  const used = new Set<string>();
  for (const { from, to } of arrows(srcDir)) {
    if (!FORBIDDEN.some(([a, b]) => folderOf(from) === a && folderOf(to) === b)) continue;
    const key = `${from} -> ${to}`;
    if (allowed.has(key)) used.add(key);
    else out.push(`forbidden arrow ${folderOf(from)} → ${folderOf(to)}: ${key}`);
  }
  for (const key of allowed) if (!used.has(key)) out.push(`allow-list entry matches no import any more, remove it: ${key}`);
  for (const file of sourceFiles(srcDir)) {
    const lines = readFileSync(file, "utf8").split("\n").length - 1;
    const path = relative(srcDir, file);
    if (lines > MAX_LINES && !LONG_FILES.has(path)) out.push(`${path} has ${lines} lines (over ${MAX_LINES}): split it`);
  }
  return out;
}

if (import.meta.main) {
  const found = problems(join(import.meta.dir, "..", "src"));
  for (const problem of found) console.error(problem);
  if (found.length) process.exit(1);
  console.log("arrows: ok");
}
