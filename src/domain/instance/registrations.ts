// Whether and how people may sign up. The operator's persisted setting (CLI) wins over the environment.
import type { Deps } from "../../deps.ts";
import type { RegistrationMode } from "../../config.ts";
import { getSetting, putSetting } from "../../store/settings.ts";

export function registrationMode(deps: Deps): RegistrationMode {
  return getSetting<RegistrationMode>(deps.store, "registrations") ?? deps.config.registrations;
}

export async function setRegistrationMode(deps: Deps, mode: RegistrationMode): Promise<void> {
  await deps.store.write(() => putSetting(deps.store, "registrations", mode));
}
