// Values derived from the store that stay exact while nothing has been committed. Any commit, by any thread
// or process, changes the store's last commit id, so a cache keyed by it can never serve stale data; under
// a write-heavy load it simply misses.
import type { Store } from "../store/db.ts";

const LIMIT = 10_000;

interface Scope {
  commit: number;
  maps: Map<string, Map<string, unknown>>;
}

const scopes = new WeakMap<Store, Scope>();

export function lastCommitId(store: Store): number {
  return store.lastCommitId();
}

/** Makes the next read start a fresh snapshot, at least as recent as a lastCommitId taken before. */
export function freshSnapshot(store: Store): void {
  store.freshSnapshot();
}

/**
 * A per-thread map named `name` whose entries were all read at the current commit. When a commit has
 * happened since, every map starts empty and the read snapshot is renewed, so what is loaded next is at
 * least as recent as the commit the map now belongs to.
 */
export function commitScoped<T>(store: Store, name: string): Map<string, T> {
  const commit = store.lastCommitId();
  let scope = scopes.get(store);
  if (!scope || scope.commit !== commit) {
    scope = { commit, maps: new Map() };
    scopes.set(store, scope);
    store.freshSnapshot();
  }
  let map = scope.maps.get(name);
  if (!map || map.size >= LIMIT) scope.maps.set(name, (map = new Map()));
  return map as Map<string, T>;
}
