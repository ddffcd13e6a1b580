// Reading an uploaded import file (/settings/import): Mastodon's following_accounts.csv, blocked_accounts.csv
// or muted_accounts.csv. Hostile files are refused or bounded: at most MAX_BYTES, strict UTF-8 (a byte-order
// mark is skipped; UTF-16 and other encodings are refused), no NUL bytes, at most MAX_ROWS lines. A header,
// when present, must be the one of the chosen type. Lines that name no `user@domain` are kept as failures.
import { Unprocessable } from "../../lib/errors.ts";
import type { ImportRow } from "../../store/imports.ts";
import type { ImportType } from "../../model/accounts.ts";

export const IMPORT_LIMITS = { maxBytes: 2 * 1024 * 1024, maxRows: 20_000, maxLineLength: 1_000 } as const;

const HEADERS: Record<ImportType, string> = {
  following: "account address,show boosts,notify on new posts,languages",
  blocking: "account address",
  muting: "account address,hide notifications",
};

/** `user@domain` (a leading "@" allowed): Mastodon usernames, host names with an optional port. */
const ACCT = /^@?([a-z0-9_](?:[a-z0-9_.-]{0,62}[a-z0-9_])?)@((?:[a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}(?::\d{1,5})?)$/i;

export interface ParsedImport {
  rows: ImportRow[];
  /** lines naming no account */
  invalid: number;
}

/** One line's cells (RFC 4180 quoting within the line); null when a quote is left open. */
export function csvCells(line: string): string[] | null {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = "";
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += line[i++];
      }
      if (i < line.length && line[i] !== ",") return null;
    } else {
      const comma = line.indexOf(",", i);
      cell = line.slice(i, comma === -1 ? line.length : comma);
      i = comma === -1 ? line.length : comma;
    }
    cells.push(cell.trim());
    if (i >= line.length) return cells;
    i++; // the comma
  }
}

const flag = (value: string | undefined, fallback: boolean) => {
  const v = (value ?? "").trim().toLowerCase();
  return v === "true" ? true : v === "false" ? false : fallback;
};

function decode(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Unprocessable("The file is not UTF-8 text");
  }
  if (text.includes("\0")) throw new Unprocessable("The file is not UTF-8 text");
  return text;
}

export function parseImportFile(bytes: Uint8Array, type: ImportType): ParsedImport {
  if (bytes.byteLength > IMPORT_LIMITS.maxBytes) throw new Unprocessable(`The file is too large (at most ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB)`);
  const lines = decode(bytes).split(/\r\n|\n|\r/);
  while (lines.length && lines[lines.length - 1]!.trim() === "") lines.pop();
  const first = lines[0]?.trim().toLowerCase() ?? "";
  if (first.startsWith("account address")) {
    if (first.replace(/\s*,\s*/g, ",").replace(/,+$/, "") !== HEADERS[type].replace(/,+$/, "")) throw new Unprocessable(`The file is not a list of ${type === "following" ? "followed" : type === "blocking" ? "blocked" : "muted"} accounts`);
    lines.shift();
  }
  if (lines.length > IMPORT_LIMITS.maxRows) throw new Unprocessable(`The file has too many lines (at most ${IMPORT_LIMITS.maxRows} accounts)`);
  const rows: ImportRow[] = [];
  let invalid = 0;
  const seen = new Set<string>();
  for (const line of lines) {
    if (line.trim() === "") continue;
    const cells = line.length > IMPORT_LIMITS.maxLineLength ? null : csvCells(line);
    const match = cells ? ACCT.exec(cells[0]!) : null;
    if (!cells || !match) {
      invalid++;
      continue;
    }
    const acct = `${match[1]}@${match[2]}`.toLowerCase();
    if (seen.has(acct)) continue;
    seen.add(acct);
    if (type === "following") {
      const languages = (cells[3] ?? "").split(/[\s,]+/).filter((l) => /^[a-z]{2,3}$/i.test(l)).slice(0, 10);
      rows.push({ acct, reblogs: flag(cells[1], true), notify: flag(cells[2], false), languages: languages.length ? languages : null });
    } else if (type === "muting") {
      rows.push({ acct, notifications: flag(cells[1], true) });
    } else {
      rows.push({ acct });
    }
  }
  if (rows.length === 0 && invalid === 0) throw new Unprocessable("The file lists no accounts");
  if (rows.length === 0) throw new Unprocessable("The file lists no account addresses (user@domain)");
  return { rows, invalid };
}
