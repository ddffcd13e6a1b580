// Server rules: listed in the instance information, managed by the operator through the CLI.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { getRule, insertRule, listRules, removeRule } from "../../store/rules.ts";
import { RULE_LIMITS } from "../limits.ts";
import type { RuleRecord } from "../../model/instance.ts";

export function instanceRules(deps: Deps): RuleRecord[] {
  return listRules(deps.store);
}

export async function addRule(deps: Deps, text: string, hint = "", now = Date.now()): Promise<RuleRecord> {
  const trimmed = text.trim();
  if (!trimmed) {
    throw new Unprocessable("Validation failed: Text can't be blank", { text: [{ error: "ERR_BLANK", description: "can't be blank" }] });
  }
  if ([...trimmed].length > RULE_LIMITS.maxTextLength) {
    const description = `is too long (maximum is ${RULE_LIMITS.maxTextLength} characters)`;
    throw new Unprocessable(`Validation failed: Text ${description}`, { text: [{ error: "ERR_TOO_LONG", description }] });
  }
  const rule: RuleRecord = { v: 1, id: newId(now), text: trimmed, hint: hint.trim(), createdAt: now };
  await deps.store.write(() => insertRule(deps.store, rule));
  return rule;
}

/** Removes a rule by its id as shown to clients; NotFound when there is none. */
export async function deleteRule(deps: Deps, rawId: string): Promise<RuleRecord> {
  const id = normaliseId(rawId);
  const rule = id ? getRule(deps.store, id) : undefined;
  if (!rule) throw new NotFound();
  await deps.store.write(() => removeRule(deps.store, rule.id));
  return rule;
}
