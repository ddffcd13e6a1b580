// The server rules shown in the instance information and at sign-up. Managed by the operator (CLI).
import type { Store } from "./handle.ts";
import type { RuleRecord } from "../model/instance.ts";

/** Every rule, oldest first (ids are time-sortable). */
export function listRules(store: Store): RuleRecord[] {
  const out: RuleRecord[] = [];
  for (const { value } of store.db.rules.getRange({})) out.push(value as RuleRecord);
  return out;
}

export function getRule(store: Store, id: string): RuleRecord | undefined {
  return store.db.rules.get(id);
}

/** Inside a write. */
export function insertRule(store: Store, rule: RuleRecord): void {
  store.db.rules.put(rule.id, rule);
}

/** Inside a write. */
export function removeRule(store: Store, id: string): void {
  store.db.rules.remove(id);
}
