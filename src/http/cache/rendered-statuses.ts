// Rendered statuses: the viewer-independent JSON of each status (entities/status-json.ts StatusJsonParts, UTF-8),
// kept per thread while what it was rendered from is unchanged, so that a page of statuses is assembled by
// copying those bytes into one buffer and writing in the viewer's parts (flags, pinned, filtered, sensitive for
// the author) instead of building every Status object and JSON.stringify-ing it again.
//
// The parts hold the status record and its preview card (version `s:`), its media (`m:` each), the custom
// emojis when a local text may name one or a remote status has some (`e:`) and the application it was posted with; not its author's Account nor its mentions, which are spliced from what each
// account record was rendered as (entities/status.ts personOf): a new post by the author changes the author's
// counters, and with them the Account, but none of the parts of its other statuses. A lookup compares the
// versions kept with the parts against the store in the page's read snapshot (the same snapshot the loader
// read the status from), so a write by any thread or process renders afresh. At most MAX_BYTES of parts per
// thread and config, oldest out first.
import type { Config } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { Value } from "@sinclair/typebox/value";
import { presentStatuses, StatusSchema } from "../../entities/status.ts";
import { statusJsonParts, writeStatusJson, type StatusJsonParts } from "../../entities/status-json.ts";
import { writeBytes, type ByteWriter } from "../../lib/byte-writer.ts";
import { insideWrite, readVersions, registerCache, versionName, versionsUnchanged, type Versions } from "../../domain/caches/invalidate.ts";
import { cacheCells } from "../../lib/metrics/counters.ts";
import type { AppRecord } from "../../model/auth.ts";
import type { LoadedStatus, LoadedStatuses } from "../../domain/statuses/loaded.ts";

const MAX_BYTES = 48 * 1024 * 1024;
registerCache("rendered statuses");
const counts = cacheCells("rendered statuses");

interface Entry {
  parts: StatusJsonParts;
  read: Versions;
  /** The application rendered (apps have no version: they are only ever created, but compare anyway). */
  app: AppRecord | null;
  /** When a running poll on it ends (ms): it renders differently from then on, with nothing written. */
  until: number;
}

class RenderedStatuses {
  private entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly config: Config) {}

  parts(deps: Deps, loaded: LoadedStatus, signedIn: boolean): StatusJsonParts {
    const { status } = loaded;
    const key = signedIn ? status.id : `a${status.id}`;
    const kept = this.entries.get(key);
    if (kept && Date.now() < kept.until && sameApp(kept.app, loaded.application) && versionsUnchanged(deps.store, kept.read)) {
      counts.hits.value++;
      return kept.parts;
    }
    counts.misses.value++;
    const parts = statusJsonParts(this.config, loaded, signedIn);
    if (insideWrite(deps.store)) return parts;
    const names = [versionName.status(status.id)];
    for (const id of status.mediaIds) names.push(versionName.media(id));
    // A local text naming a shortcode shows the custom emoji of that name, whenever it is imported or removed.
    if (status.local && (status.text.includes(":") || status.spoilerText.includes(":"))) names.push(versionName.emojis());
    // A remote status's emojis show the copies kept here once fetched (same keyspace, same version).
    else if (status.emojis?.length) names.push(versionName.emojis());
    if (kept) this.forget(key, kept);
    if (parts.length > MAX_BYTES) return parts;
    for (const [oldest, old] of this.entries) {
      if (this.bytes + parts.length <= MAX_BYTES) break;
      this.forget(oldest, old);
    }
    this.entries.set(key, { parts, read: readVersions(deps.store, names), app: loaded.application, until: pollEnd(loaded) });
    this.bytes += parts.length;
    return parts;
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.parts.length;
  }
}

function pollEnd(loaded: LoadedStatus): number {
  const end = loaded.poll?.poll.expiresAt ?? null;
  return end === null ? Infinity : end > Date.now() ? end : Infinity;
}

function sameApp(kept: AppRecord | null, now: AppRecord | null): boolean {
  return kept === now || (kept !== null && now !== null && kept.name === now.name && kept.website === now.website);
}

const byConfig = new WeakMap<Config, RenderedStatuses>();

/** A loaded page of statuses as the JSON array its viewer is sent (the UTF-8 bytes of JSON.stringify(presentStatuses)). */
export function statusesJson(deps: Deps, page: LoadedStatuses): Uint8Array {
  return writeBytes((out) => writeStatuses(out, deps, page));
}

/** Writes statusesJson's array into `out` (a thread's answer holds two). */
export function writeStatuses(out: ByteWriter, deps: Deps, page: LoadedStatuses): void {
  const { config } = deps;
  let cache = byConfig.get(config);
  if (!cache) byConfig.set(config, (cache = new RenderedStatuses(config)));
  const signedIn = page.viewerId !== null;
  const partsOf = (loaded: LoadedStatus) => cache.parts(deps, loaded, signedIn);
  const start = out.position;
  out.ascii("[");
  for (let i = 0; i < page.statuses.length; i++) {
    if (i) out.ascii(",");
    writeStatusJson(out, config, page.viewerId, page.statuses[i]!, partsOf);
  }
  out.ascii("]");
  if (config.checkResponses) checkAgainstObjects(config, page, out.textFrom(start));
}

/**
 * Under tests and in development: the text must be exactly JSON.stringify of the Status objects, and those
 * must match the Status schema (a page sent as text bypasses the route's response check).
 */
function checkAgainstObjects(config: Config, page: LoadedStatuses, text: string): void {
  const statuses = presentStatuses(config, page);
  const expected = JSON.stringify(statuses);
  if (text !== expected) {
    let at = 0;
    while (at < text.length && text[at] === expected[at]) at++;
    throw new Error(`rendered statuses differ from their objects at ${at}: …${text.slice(at - 40, at + 60)}… instead of …${expected.slice(at - 40, at + 60)}…`);
  }
  for (const status of statuses) {
    if (!Value.Check(StatusSchema, status)) {
      const [first] = Value.Errors(StatusSchema, status);
      throw new Error(`a Status does not match its schema: ${first?.path} ${first?.message}`);
    }
  }
}
