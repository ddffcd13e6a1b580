// What every operator command shares: the store opened on the configured data directory, and exit codes
// (0 ok, 1 failed, 64 usage) with one line on stderr for what went wrong.
import { loadConfig } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import { federationRemote } from "../federation/remote.ts";
import { openStore } from "../store/db.ts";
import { openJobQueue } from "../compose.ts";
import { ApiError } from "../lib/errors.ts";

/** The command line is wrong: usage is printed, exit 64. */
export class UsageError extends Error {}
/** The command could not be carried out: exit 1. */
export class Failure extends Error {}

export type Subcommand = (deps: AppDeps, args: string[]) => Promise<void>;

export async function runSubcommand(group: string, usage: string, subcommands: Record<string, Subcommand>, args: string[]): Promise<number> {
  const [name, ...rest] = args;
  const run = name && Object.hasOwn(subcommands, name) ? subcommands[name] : undefined;
  if (!run) {
    process.stderr.write(name ? `unknown ${group} command: ${name}\n${usage}` : usage);
    return 64;
  }
  const config = loadConfig();
  const store = openStore(config.dataDir);
  const deps: AppDeps = { config, store, jobs: openJobQueue(store, config), remote: federationRemote };
  try {
    await run(deps, rest);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${usage}`);
      return 64;
    }
    if (error instanceof ApiError || error instanceof Failure) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

export interface Parsed {
  positional: string[];
  values: Record<string, string>;
  flags: Set<string>;
}

/** `--name=value`, `--name value` (for options that take a value) and `--flag`, as Thor reads them. */
export function parseArgs(args: readonly string[], valueOptions: readonly string[], flagOptions: readonly string[]): Parsed {
  const parsed: Parsed = { positional: [], values: {}, flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--")) {
      parsed.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (valueOptions.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === "") throw new UsageError(`option --${name} needs a value`);
      parsed.values[name] = value;
    } else if (flagOptions.includes(name) && eq < 0) {
      parsed.flags.add(name);
    } else {
      throw new UsageError(`unknown option: ${arg}`);
    }
  }
  return parsed;
}
