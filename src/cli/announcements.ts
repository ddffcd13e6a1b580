// `warren announcements add "TEXT" [--starts-at=TIME] [--ends-at=TIME] [--all-day] | list | remove ID`
// (docs/instance.md#announcements): what every user sees on top of their home. Times are ISO 8601.
// Exit codes: 0 ok, 1 failed, 64 usage.
import type { Deps } from "../deps.ts";
import { runSubcommand, UsageError } from "./command.ts";
import { deleteAnnouncement, listAnnouncements, publishAnnouncement } from "../domain/announcements/announcements.ts";
import { publicId } from "../lib/ids.ts";

const USAGE = `usage:
  warren announcements add "TEXT" [--starts-at=ISO-TIME] [--ends-at=ISO-TIME] [--all-day]
  warren announcements list
  warren announcements remove ID
`;

function time(flag: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new UsageError(`${flag} is not a time: ${value}`);
  return ms;
}

async function add(deps: Deps, args: string[]): Promise<void> {
  const texts = args.filter((a) => !a.startsWith("--"));
  const options = new Map(args.filter((a) => a.startsWith("--")).map((a) => [a.split("=")[0]!, a.includes("=") ? a.slice(a.indexOf("=") + 1) : ""]));
  for (const name of options.keys()) if (!["--starts-at", "--ends-at", "--all-day"].includes(name)) throw new UsageError(`unknown option ${name}`);
  if (texts.length !== 1) throw new UsageError("announcements add needs exactly one TEXT (quote it)");
  const record = await publishAnnouncement(deps, {
    text: texts[0]!,
    startsAt: time("--starts-at", options.get("--starts-at")),
    endsAt: time("--ends-at", options.get("--ends-at")),
    allDay: options.has("--all-day"),
  });
  process.stdout.write(`OK\n${publicId(record.id)}\n`);
}

async function list(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError("announcements list takes no arguments");
  const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());
  for (const a of listAnnouncements(deps.store)) process.stdout.write(`${publicId(a.id)}\t${iso(a.startsAt)}\t${iso(a.endsAt)}\t${a.text.replace(/\s+/g, " ")}\n`);
}

async function remove(deps: Deps, args: string[]): Promise<void> {
  if (args.length !== 1) throw new UsageError("announcements remove needs exactly one ID");
  await deleteAnnouncement(deps, args[0]!);
  process.stdout.write("OK\n");
}

export function runAnnouncementsCommand(args: string[]): Promise<number> {
  return runSubcommand("announcements", USAGE, { add, list, remove }, args);
}
