// `warren suggestions add|remove|list`: the staff picks, suggested first to everyone (docs/suggestions.md).
// tootctl has no such command (Mastodon keeps them in the admin settings); an admin API comes later.
// Exit codes: 0 ok, 1 failed, 64 usage.
import type { Deps } from "../deps.ts";
import { Failure, runSubcommand, UsageError } from "./command.ts";
import { NotFound } from "../lib/errors.ts";
import { publicId } from "../lib/ids.ts";
import { addFeatured, featuredPicks, removeFeaturedAccount, type Pick } from "../domain/suggestions/featured.ts";

const USAGE = `usage:
  warren suggestions list
  warren suggestions add USERNAME[@DOMAIN]
  warren suggestions remove USERNAME[@DOMAIN]
`;

function pickLine(pick: Pick): string {
  const { username, domain } = pick.account;
  const acct = domain ? `${username}@${domain}` : username;
  const note = pick.notSuggested.length ? `\t(not suggested: ${pick.notSuggested.join(", ")})` : "";
  return `${acct}\t${publicId(pick.account.id)}${note}\n`;
}

function oneAccount(args: string[], verb: string): string {
  if (args.length !== 1 || args[0]!.startsWith("--")) throw new UsageError(`suggestions ${verb} needs exactly one USERNAME`);
  return args[0]!;
}

function failOnNotFound(error: unknown): never {
  throw error instanceof NotFound ? new Failure(error.message) : error;
}

async function add(deps: Deps, args: string[]): Promise<void> {
  const { pick, added } = await addFeatured(deps, oneAccount(args, "add")).catch(failOnNotFound);
  process.stdout.write(`${added ? "OK" : "OK (already a staff pick)"}\n${pickLine(pick)}`);
}

async function remove(deps: Deps, args: string[]): Promise<void> {
  await removeFeaturedAccount(deps, oneAccount(args, "remove")).catch(failOnNotFound);
  process.stdout.write("OK\n");
}

async function list(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError("suggestions list takes no arguments");
  for (const pick of featuredPicks(deps)) process.stdout.write(pickLine(pick));
}

export function runSuggestionsCommand(args: string[]): Promise<number> {
  return runSubcommand("suggestions", USAGE, { add, remove, list }, args);
}
