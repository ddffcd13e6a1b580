// A fresh instance has no staff to approve sign-ups: the server says once, at start, how to create its Owner.
import type { Deps } from "../deps.ts";
import { contactAccount } from "../domain/instance/info.ts";

/** How the operator runs this program's words: the single executable by its path, else through npm. */
export function operatorCommand(): string {
  const compiled = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:/~BUN/");
  return compiled ? process.execPath : "npx warren";
}

/** The one line printed at start-up when no active Owner exists; null when one does. */
export function missingOwnerHint(deps: Deps): string | null {
  if (contactAccount(deps)) return null;
  return (
    "No Owner account yet: create one with\n" +
    `  ${operatorCommand()} accounts create USERNAME --email=ADDRESS --confirmed --role=Owner\n`
  );
}
