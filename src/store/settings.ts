// Instance-wide settings changed at run time (CLI, admin). They win over the environment's defaults.
import { noteRead, versionName } from "./versions.ts";

import type { SettingName } from "../model/instance.ts";
import type { Store } from "./handle.ts";

/** A cached value built from a setting (a timeline page) depends on it: its write bumps `versionName.setting`. */
export function getSetting<T>(store: Store, name: SettingName): T | undefined {
  noteRead(versionName.setting(name));
  return store.db.meta.get(`setting:${name}`);
}

/** Inside a write. */
export function putSetting(store: Store, name: SettingName, value: unknown): void {
  store.db.meta.put(`setting:${name}`, value);
}
