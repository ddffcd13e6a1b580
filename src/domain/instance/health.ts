// Whether this process's database answers reads (GET /health, http/instance/health.ts): a closed or broken
// LMDB environment throws on the smallest read, here the stored registrations setting.
import type { Deps } from "../../deps.ts";
import { getSetting } from "../../store/settings.ts";

export function storeAnswers(deps: Deps): boolean {
  try {
    getSetting(deps.store, "registrations");
    return true;
  } catch {
    return false;
  }
}
