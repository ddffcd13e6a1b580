// `warren domains block DOMAIN [--severity=silence|suspend|noop] [--reject-media] [--reject-reports]
// [--public-comment=TEXT] [--private-comment=TEXT] [--obfuscate]`, `warren domains unblock DOMAIN` and
// `warren domains list`: the instance's domain blocks, as the admin API keeps them (docs/admin.md). tootctl
// leaves blocks to the web interface; the words follow Mastodon's admin form. Exit codes: 0 ok, 1 failed, 64 usage.
import type { Deps } from "../deps.ts";
import { Failure, parseArgs, runSubcommand, UsageError } from "./command.ts";
import { ApiError } from "../lib/errors.ts";
import {
  createDomainBlock,
  deleteDomainBlock,
  ExistingDomainBlock,
  findDomainBlockByName,
  listDomainBlocks,
  SEVERITIES,
} from "../domain/admin/domain-blocks.ts";
import type { DomainBlockRecord } from "../model/moderation.ts";

const USAGE = `usage:
  warren domains block DOMAIN [--severity=${SEVERITIES.join("|")}] [--reject-media] [--reject-reports] [--public-comment=TEXT] [--private-comment=TEXT] [--obfuscate]
  warren domains unblock DOMAIN
  warren domains list
`;

function blockLine(block: DomainBlockRecord): string {
  const extras = [block.rejectMedia && "reject-media", block.rejectReports && "reject-reports", block.obfuscate && "obfuscate"].filter(Boolean);
  return `${block.domain}\t${block.severity}${extras.length ? `\t${extras.join(",")}` : ""}\n`;
}

function oneDomain(positional: string[], verb: string): string {
  if (positional.length !== 1) throw new UsageError(`domains ${verb} needs exactly one DOMAIN`);
  return positional[0]!;
}

async function block(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["severity", "public-comment", "private-comment"], ["reject-media", "reject-reports", "obfuscate"]);
  const domain = oneDomain(parsed.positional, "block");
  const severity = parsed.values.severity;
  if (severity !== undefined && !(SEVERITIES as readonly string[]).includes(severity)) {
    throw new UsageError(`--severity must be one of ${SEVERITIES.join(", ")}`);
  }
  try {
    const created = await createDomainBlock(deps, {
      domain,
      severity,
      rejectMedia: parsed.flags.has("reject-media"),
      rejectReports: parsed.flags.has("reject-reports"),
      publicComment: parsed.values["public-comment"],
      privateComment: parsed.values["private-comment"],
      obfuscate: parsed.flags.has("obfuscate"),
    });
    process.stdout.write(`OK\n${blockLine(created)}`);
  } catch (error) {
    if (error instanceof ExistingDomainBlock) throw new Failure(`${error.message}\n${blockLine(error.existing).trimEnd()}`);
    if (error instanceof ApiError) throw new Failure(error.message);
    throw error;
  }
}

async function unblock(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, [], []);
  const existing = findDomainBlockByName(deps.store, oneDomain(parsed.positional, "unblock"));
  await deleteDomainBlock(deps, existing.id);
  process.stdout.write("OK\n");
}

async function list(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError("domains list takes no arguments");
  for (const entry of listDomainBlocks(deps.store)) process.stdout.write(blockLine(entry));
}

export function runDomainsCommand(args: string[]): Promise<number> {
  return runSubcommand("domains", USAGE, { block, unblock, list }, args);
}
