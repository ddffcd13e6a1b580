// `warren trends refresh|auto-approve|list` (docs/trends.md): recompute the trends now, let candidates trend
// without review (Mastodon's "allow trends without prior review"), or print the current candidates.
// Exit codes: 0 ok, 1 failed, 64 usage.
import type { Deps } from "../deps.ts";
import { runSubcommand, UsageError } from "./command.ts";
import { listed } from "../domain/trends/read.ts";
import { storeTrends } from "../domain/trends/refresh.ts";
import { autoApprove, getTrendList, setAutoApprove } from "../store/trends.ts";
import { publicId } from "../lib/ids.ts";

const USAGE = `usage:
  warren trends refresh
  warren trends auto-approve [on|off]
  warren trends list
`;

async function refresh(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError("trends refresh takes no arguments");
  await storeTrends(deps.store);
  process.stdout.write("OK\n");
}

async function autoApproveCommand(deps: Deps, args: string[]): Promise<void> {
  const [value, ...rest] = args;
  if (rest.length || (value !== undefined && value !== "on" && value !== "off")) throw new UsageError("trends auto-approve takes on or off");
  if (value !== undefined) await deps.store.write(() => setAutoApprove(deps.store, value === "on"));
  process.stdout.write(`auto-approve ${autoApprove(deps.store) ? "on" : "off"}\n`);
}

async function list(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError("trends list takes no arguments");
  const mark = (shown: boolean) => (shown ? "listed" : "pending or rejected");
  for (const tag of getTrendList(deps.store, "tags").items) process.stdout.write(`tag\t#${tag.name}\t${tag.score.toFixed(2)}\t${mark(listed(deps.store, "tags", tag.name))}\n`);
  for (const s of getTrendList(deps.store, "statuses").items) {
    process.stdout.write(`status\t${publicId(s.statusId)}\t${s.score.toFixed(2)}\t${mark(listed(deps.store, "statuses", s.statusId))}\n`);
  }
  for (const l of getTrendList(deps.store, "links").items) process.stdout.write(`link\t${l.id}\t${l.url}\t${l.score}\t${mark(listed(deps.store, "links", l.id))}\n`);
}

export function runTrendsCommand(args: string[]): Promise<number> {
  return runSubcommand("trends", USAGE, { refresh, "auto-approve": autoApproveCommand, list }, args);
}
