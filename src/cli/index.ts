// tootctl-like operator commands, dispatched by their first word. Each module prints what it did and
// returns an exit code (0 ok, 1 failed, 64 usage).
import { runAccountsCommand } from "./accounts.ts";
import { runCacheCommand } from "./cache.ts";
import { runDomainsCommand } from "./domains.ts";
import { runMediaCommand } from "./media.ts";
import { runReportsCommand } from "./reports.ts";
import { runSearchCommand } from "./search.ts";
import { runSettingsCommand } from "./settings.ts";
import { runSuggestionsCommand } from "./suggestions.ts";
import { runTrendsCommand } from "./trends.ts";
import { runAnnouncementsCommand } from "./announcements.ts";
import { runEmojiCommand } from "./emoji.ts";
import { runBackupCommand } from "./backup.ts";
import { runRestoreCommand } from "./restore.ts";
import { runRestartCommand } from "./restart.ts";
import { printVersion, runVersionCommand } from "./version.ts";
import { runUsageCommand } from "./usage.ts";
import { runCompactCommand } from "./compact.ts";
import { runPreviewCardsCommand } from "./preview-cards.ts";
import { runStatusesCommand } from "./statuses.ts";

export const USAGE = `usage:
  warren serve
  warren restart   (rolling restart of the processes of WARREN_PROCESSES > 1)
  warren --version | version
  warren backup --to=DIR
  warren restore --from=DIR
  warren accounts create USERNAME --email=EMAIL [--confirmed] [--role=Owner|Admin|Moderator] [--approve]
  warren accounts modify USERNAME [--role=ROLE] [--approve] [--disable] [--enable] [--reset-password]
  warren accounts approve USERNAME | --all
  warren accounts reject USERNAME | --all
  warren accounts delete USERNAME
  warren accounts cull [--dry-run]
  warren domains block DOMAIN [--severity=silence|suspend|noop] [--reject-media] [--reject-reports] | unblock DOMAIN | list
  warren settings registrations open|approved|close
  warren settings rules list | add "TEXT" [--hint="HINT"] | remove ID
  warren settings description ["TEXT"]
  warren settings timeline-preview [on|off]
  warren cache recount statuses|accounts
  warren media remove [--days=N] [--dry-run] | remove-orphans | usage
  warren preview_cards remove [--days=N] [--dry-run]
  warren statuses remove [--days=N] [--dry-run]
  warren usage [--pages-only] [--json]
  warren compact
  warren reports list [--unresolved]
  warren search deploy
  warren suggestions list | add USERNAME[@DOMAIN] | remove USERNAME[@DOMAIN]
  warren trends refresh | auto-approve [on|off] | list
  warren announcements add "TEXT" [--starts-at=TIME] [--ends-at=TIME] [--all-day] | list | remove ID
  warren emoji import FILE|DIRECTORY [--shortcode=CODE] [--category=NAME] [--unlisted] [--overwrite] | list | remove CODE
`;

export async function runCli(command: string, args: string[]): Promise<number> {
  switch (command) {
    case "accounts":
      return runAccountsCommand(args);
    case "settings":
      return runSettingsCommand(args);
    case "cache":
      return runCacheCommand(args);
    case "domains":
      return runDomainsCommand(args);
    case "media":
      return runMediaCommand(args);
    case "reports":
      return runReportsCommand(args);
    case "search":
      return runSearchCommand(args);
    case "suggestions":
      return runSuggestionsCommand(args);
    case "trends":
      return runTrendsCommand(args);
    case "announcements":
      return runAnnouncementsCommand(args);
    case "emoji":
      return runEmojiCommand(args);
    case "backup":
      return runBackupCommand(args);
    case "restore":
      return runRestoreCommand(args);
    case "restart":
      return runRestartCommand();
    case "version":
      return runVersionCommand();
    case "--version":
    case "-v":
      return printVersion();
    case "usage":
      return runUsageCommand(args);
    case "compact":
      return runCompactCommand(args);
    case "preview_cards":
      return runPreviewCardsCommand(args);
    case "statuses":
      return runStatusesCommand(args);
    case "help":
    case "--help":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`unknown command: ${command}\n${USAGE}`);
      return 64;
  }
}
