// The tests of the migrations that pack id-only keyspaces (schemas 9 and 11, docs/disk.md): their entries read
// out for comparison, and the data put back in the form before the migration.
import { openStore, type Store } from "../../src/store/db.ts";

/** The entries of the named keyspaces as JSON, each keyspace's in key order; `keep` picks keys. */
export function keyspaceEntries(store: Store, names: readonly string[], keep: (key: unknown) => boolean = () => true): string {
  const db = store.db as unknown as Record<string, Store["db"]["meta"]>;
  return JSON.stringify(names.map((name) => [...db[name]!.getRange({})].filter(({ key }) => keep(key)).map(({ key, value }) => [key, value])));
}

/** Moves each packed keyspace's entries back into its legacy one and marks the data as of `version`. */
export async function unpackKeyspaces(dir: string, pairs: readonly (readonly [string, string])[], version: number): Promise<Store> {
  const store = openStore(dir, { migrate: false });
  const db = store.db as unknown as Record<string, Store["db"]["meta"]>;
  await store.write(() => {
    for (const [legacy, packed] of pairs) {
      for (const { key, value } of [...db[packed]!.getRange({})]) db[legacy]!.put(key, value);
      db[packed]!.clearSync();
    }
    store.db.meta.put("schema_version", version);
  });
  return store;
}
