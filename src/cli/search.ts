// `warren search deploy` (tootctl's words): empties the search index and rebuilds it from every account and
// status record, in batches, with a progress bar on stderr; the configured engine (embedded, or Meilisearch
// when WARREN_MEILISEARCH_URL is set). Safe while the server runs. Exit codes: 0 ok, 1 failed, 64 usage.
import type { Deps } from "../deps.ts";
import { deploySearchIndex } from "../domain/search/indexing.ts";
import { searchEngineFor } from "../search/index.ts";
import { Failure, runSubcommand, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren search deploy
`;

async function deployCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError(`deploy takes no arguments, got ${args.join(" ")}`);
  const engine = searchEngineFor(deps.store, deps.config);
  const bar = progressBar(`Indexing (${engine.name})`);
  let result;
  try {
    await engine.start();
    result = await deploySearchIndex(deps, bar.update);
  } catch (error) {
    // A Meilisearch server that is down or refuses a task: one line, exit 1.
    throw new Failure(`search deploy failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  bar.finish();
  process.stdout.write(`OK, indexed ${result.accounts} accounts, ${result.statuses} statuses and ${result.tags} hashtags (${engine.name})\n`);
}

export function runSearchCommand(args: string[]): Promise<number> {
  return runSubcommand("search", USAGE, { deploy: deployCommand }, args);
}
