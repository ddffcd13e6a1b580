// Instance-wide settings changed at run time (CLI, admin). They win over the environment's defaults.
import type { Store } from "./handle.ts";
import type { SettingName } from "../model/instance.ts";

export function getSetting<T>(store: Store, name: SettingName): T | undefined {
  return store.db.meta.get(`setting:${name}`);
}

/** Inside a write. */
export function putSetting(store: Store, name: SettingName, value: unknown): void {
  store.db.meta.put(`setting:${name}`, value);
}
