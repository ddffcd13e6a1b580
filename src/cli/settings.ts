// `warren settings …`: instance settings the operator changes at run time (see docs/cli.md). They are stored
// in the data directory and win over the environment. Exit codes: 0 ok, 1 failed, 64 usage.
import type { RegistrationMode } from "../config.ts";
import type { Deps } from "../deps.ts";
import { Failure, runSubcommand, UsageError } from "./command.ts";
import { NotFound, Unprocessable } from "../lib/errors.ts";
import { publicId } from "../lib/ids.ts";
import { registrationMode, setRegistrationMode } from "../domain/instance/registrations.ts";
import { addRule, deleteRule, instanceRules } from "../domain/instance/rules.ts";
import { instanceDescription, setInstanceDescription } from "../domain/instance/info.ts";
import { setTimelinePreview, timelinePreview } from "../domain/instance/timeline-preview.ts";
import { FEED_ACCESS_VALUES, feedAccess, setFeedAccess } from "../domain/instance/feed-access.ts";
import { FEED_SETTINGS } from "../model/instance.ts";

const USAGE = `usage:
  warren settings registrations open|approved|close
  warren settings rules list
  warren settings rules add "TEXT" [--hint="HINT"]
  warren settings rules remove ID
  warren settings description ["TEXT"]
  warren settings timeline-preview [on|off]
  warren settings feed-access [SETTING [public|authenticated|disabled]]
    SETTING: local_live_feed_access, remote_live_feed_access, local_topic_feed_access, remote_topic_feed_access
`;


/** tootctl's words for the registration modes. */
const MODES: Record<string, RegistrationMode> = { open: "open", approved: "approval", close: "closed" };

async function registrations(deps: Deps, args: string[]): Promise<void> {
  const mode = args.length === 1 && Object.hasOwn(MODES, args[0]!) ? MODES[args[0]!] : undefined;
  if (!mode) throw new UsageError(args.length ? `unknown registrations mode: ${args.join(" ")}` : "registrations needs open, approved or close");
  await setRegistrationMode(deps, mode);
  process.stdout.write(`OK\nRegistrations: ${registrationMode(deps)}\n`);
}

function ruleLine(rule: { id: string; text: string; hint: string }): string {
  return `${publicId(rule.id)}\t${rule.text}${rule.hint ? `\t${rule.hint}` : ""}\n`;
}

async function rules(deps: Deps, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === "list" && rest.length === 0) {
    for (const rule of instanceRules(deps)) process.stdout.write(ruleLine(rule));
    return;
  }
  if (action === "add") {
    let hint = "";
    const texts: string[] = [];
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i]!;
      if (arg.startsWith("--hint=")) hint = arg.slice("--hint=".length);
      else if (arg === "--hint" && rest[i + 1] !== undefined) hint = rest[++i]!;
      else if (arg.startsWith("--")) throw new UsageError(`unknown option: ${arg}`);
      else texts.push(arg);
    }
    if (texts.length !== 1) throw new UsageError("rules add needs exactly one TEXT (quote it)");
    const rule = await addRule(deps, texts[0]!, hint);
    process.stdout.write(`OK\n${ruleLine(rule)}`);
    return;
  }
  if (action === "remove" && rest.length === 1) {
    await deleteRule(deps, rest[0]!).catch((error) => {
      throw error instanceof NotFound ? new Failure(`No rule with id ${rest[0]}`) : error;
    });
    process.stdout.write("OK\n");
    return;
  }
  throw new UsageError(action ? `unknown or incomplete rules command: ${args.join(" ")}` : "rules needs list, add or remove");
}

async function description(deps: Deps, args: string[]): Promise<void> {
  if (args.length > 1) throw new UsageError("description takes one TEXT (quote it)");
  if (args.length === 1) {
    await setInstanceDescription(deps, args[0]!);
    process.stdout.write("OK\n");
    return;
  }
  const current = instanceDescription(deps).text;
  process.stdout.write(current ? `${current}\n` : "");
}

async function timelinePreviewCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length > 1 || (args.length === 1 && args[0] !== "on" && args[0] !== "off")) throw new UsageError("timeline-preview takes on or off");
  if (args.length === 1) await setTimelinePreview(deps, args[0] === "on");
  process.stdout.write(`${args.length ? "OK\n" : ""}Timeline preview: ${timelinePreview(deps) ? "on" : "off"}\n`);
}

/** Mastodon 4.5's four feed settings (domain/instance/feed-access.ts); names with dashes work too. */
async function feedAccessCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length > 2) throw new UsageError("feed-access takes SETTING and a value");
  if (args.length > 0) {
    const name = FEED_SETTINGS.find((n) => n === args[0]!.replaceAll("-", "_"));
    if (!name) throw new UsageError(`unknown feed setting: ${args[0]} (one of ${FEED_SETTINGS.join(", ")})`);
    if (args.length === 1) {
      process.stdout.write(`${feedAccess(deps, name)}\n`);
      return;
    }
    const value = FEED_ACCESS_VALUES.find((v) => v === args[1]);
    if (!value) throw new UsageError(`feed-access takes public, authenticated or disabled, not ${args[1]}`);
    await setFeedAccess(deps, name, value).catch((error) => {
      throw error instanceof Unprocessable ? new UsageError(error.message.replace("Validation failed: ", "")) : error;
    });
    process.stdout.write("OK\n");
  }
  for (const name of FEED_SETTINGS) process.stdout.write(`${name}\t${feedAccess(deps, name)}\n`);
}

const COMMANDS: Record<string, (deps: Deps, args: string[]) => Promise<void>> = {
  registrations,
  rules,
  description,
  "timeline-preview": timelinePreviewCommand,
  "feed-access": feedAccessCommand,
};

export function runSettingsCommand(args: string[]): Promise<number> {
  return runSubcommand("settings", USAGE, COMMANDS, args);
}
