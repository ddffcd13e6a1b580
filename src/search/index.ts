// Which search engine an instance uses, and one of it per store and thread: the server, every job worker
// thread and the CLI each call searchEngineFor() with their store. Embedded (our LMDB environment) unless
// WARREN_MEILISEARCH_URL is set. The engine is started (indexes and settings) once, before its first use:
// every call waits for that start, and a failed start (a Meilisearch server not up yet) is tried again by
// the next call.
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import { createEmbeddedEngine } from "./embedded.ts";
import type { SearchEngine } from "./engine.ts";
import { createMeilisearchEngine } from "./meilisearch.ts";

export type { AccountDocument, AccountQuery, Page, SearchEngine, StatusDocument, StatusQuery, TagDocument } from "./engine.ts";

const engines = new WeakMap<Store, SearchEngine>();

/** The engine `config` chooses, without the start-once wrapper (tests and `warren search deploy` use it through searchEngineFor). */
export function createSearchEngine(store: Store, config: Pick<Config, "meilisearch">): SearchEngine {
  return config.meilisearch ? createMeilisearchEngine(config.meilisearch) : createEmbeddedEngine(store);
}

/** Wraps an engine so that start() runs once and every other call waits for it. */
export function startingOnce(engine: SearchEngine): SearchEngine {
  let started: Promise<void> | null = null;
  const start = () => {
    started ??= engine.start().catch((error: unknown) => {
      started = null;
      throw error;
    });
    return started;
  };
  const after = <A extends unknown[], R>(method: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    await start();
    return method(...args);
  };
  return {
    name: engine.name,
    start,
    indexAccounts: after(engine.indexAccounts),
    indexStatuses: after(engine.indexStatuses),
    indexTags: after(engine.indexTags),
    removeAccounts: after(engine.removeAccounts),
    removeStatuses: after(engine.removeStatuses),
    searchAccounts: after(engine.searchAccounts),
    searchTags: after(engine.searchTags),
    searchStatuses: after(engine.searchStatuses),
    clear: after(engine.clear),
  };
}

/** The search engine of this store in this thread (created and started on first use). */
export function searchEngineFor(store: Store, config: Pick<Config, "meilisearch">): SearchEngine {
  let engine = engines.get(store);
  if (!engine) {
    engine = startingOnce(createSearchEngine(store, config));
    engines.set(store, engine);
  }
  return engine;
}
