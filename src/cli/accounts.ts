// `warren accounts create|modify|approve|reject|delete …`, with tootctl's words and output (see docs/cli.md).
// Accounts the CLI creates are approved at once; they are confirmed only with --confirmed. Exit codes: 0 ok,
// 1 failed, 64 usage.
import type { Deps } from "../deps.ts";
import { Failure, parseArgs, runSubcommand, UsageError, type Parsed } from "./command.ts";
import { cull } from "./accounts-cull.ts";
import { generatePassword } from "../domain/auth/password.ts";
import { createLocalAccount } from "../domain/accounts/create.ts";
import { changeUser, findLocalUser, type UserChanges } from "../domain/accounts/manage.ts";
import { parseRoleName, ROLE_NAMES } from "../domain/accounts/roles.ts";
import { approveAccount, deleteAccountNow, rejectAccount } from "../domain/admin/accounts-actions.ts";
import { pendingSignUps } from "../domain/admin/accounts-read.ts";
import type { RoleName } from "../model/accounts.ts";

const USAGE = `usage:
  warren accounts create USERNAME --email=EMAIL [--confirmed] [--role=${ROLE_NAMES.join("|")}] [--approve]
  warren accounts modify USERNAME [--role=ROLE] [--approve] [--confirm] [--email=EMAIL] [--disable | --enable] [--reset-password]
  warren accounts approve USERNAME | --all
  warren accounts reject USERNAME | --all
  warren accounts delete USERNAME
  warren accounts cull [--dry-run]     remove remote accounts whose server answers 404 or 410 for their actor
`;


function username(parsed: Parsed): string {
  if (parsed.positional.length !== 1) throw new UsageError("expected exactly one USERNAME");
  return parsed.positional[0]!;
}

function role(parsed: Parsed): RoleName | undefined {
  const raw = parsed.values.role;
  if (raw === undefined) return undefined;
  const name = parseRoleName(raw);
  if (!name) throw new Failure(`Cannot find user role with that name (use one of ${ROLE_NAMES.join(", ")})`);
  return name;
}

async function create(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["email", "role"], ["confirmed", "approve"]);
  const name = username(parsed);
  const email = parsed.values.email;
  if (!email) throw new UsageError("accounts create needs --email=EMAIL");
  const password = generatePassword();
  await createLocalAccount(deps, {
    username: name,
    email,
    password,
    role: role(parsed),
    // Operators vouch for the accounts they create; --approve is accepted for tootctl compatibility.
    approved: true,
    confirmed: parsed.flags.has("confirmed"),
    allowReserved: true,
  });
  process.stdout.write(`OK\nNew password: ${password}\n`);
}

async function modify(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["email", "role"], ["approve", "confirm", "disable", "enable", "reset-password"]);
  const name = username(parsed);
  if (parsed.flags.has("disable") && parsed.flags.has("enable")) throw new UsageError("--disable and --enable exclude each other");
  const changes: UserChanges = { role: role(parsed), email: parsed.values.email };
  if (parsed.flags.has("approve")) changes.approve = true;
  if (parsed.flags.has("confirm")) changes.confirm = true;
  if (parsed.flags.has("disable")) changes.disabled = true;
  if (parsed.flags.has("enable")) changes.disabled = false;
  const password = parsed.flags.has("reset-password") ? generatePassword() : undefined;
  if (password) changes.password = password;
  const { account } = findLocalUser(deps, name);
  await changeUser(deps, account.id, changes);
  process.stdout.write(password ? `OK\nNew password: ${password}\n` : "OK\n");
}

/** USERNAME, or every pending sign-up with --all (tootctl's approve and reject). */
function pendingTargets(deps: Deps, args: string[], verb: string): string[] {
  const parsed = parseArgs(args, [], ["all"]);
  if (parsed.flags.has("all")) {
    if (parsed.positional.length) throw new UsageError(`accounts ${verb} takes USERNAME or --all, not both`);
    return pendingSignUps(deps.store).map((view) => view.account.id);
  }
  const { account, user } = findLocalUser(deps, username(parsed));
  if (user.approved) {
    // Approving an approved user changes nothing (tootctl says OK); rejecting one would delete a real account.
    if (verb === "approve") return [];
    throw new Failure(`${account.username} is not waiting for approval (delete the account with: warren accounts delete ${account.username})`);
  }
  return [account.id];
}

async function approve(deps: Deps, args: string[]): Promise<void> {
  for (const id of pendingTargets(deps, args, "approve")) await approveAccount(deps, null, id);
  process.stdout.write("OK\n");
}

async function reject(deps: Deps, args: string[]): Promise<void> {
  for (const id of pendingTargets(deps, args, "reject")) await rejectAccount(deps, null, id);
  process.stdout.write("OK\n");
}

/** Deletes the account's data now; the account stays, suspended, its name reserved (docs/admin.md). */
async function remove(deps: Deps, args: string[]): Promise<void> {
  const { account } = findLocalUser(deps, username(parseArgs(args, [], [])));
  await deleteAccountNow(deps, account.id);
  process.stdout.write("OK\n");
}

export function runAccountsCommand(args: string[]): Promise<number> {
  return runSubcommand("accounts", USAGE, { create, modify, approve, reject, delete: remove, cull }, args);
}
