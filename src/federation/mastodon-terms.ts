// Mastodon's extension properties that Fedify's vocabulary has no fields for: `blurhash` and `focalPoint` of an
// attachment, `atomUri` of a deleted status's Tombstone (and the `Hashtag` term, missing from actors' context). Mastodon reads them as plain JSON keys, so they must
// come out as `blurhash`, not `toot:blurhash`: an object made by `withTerms` adds them to its expanded JSON-LD
// (which is how Fedify serialises objects nested in an activity), and the activities and Notes we send or
// serve are compacted with Fedify's own context plus these terms (`Compacted`).
import { Create, Delete, Document, Note, Person, Question, Service, Tombstone, Update, type Object as APObject } from "@fedify/vocab";

const TOOT = "http://joinmastodon.org/ns#";
const OSTATUS = "http://ostatus.org#";

/** The terms as Mastodon's own context defines them. */
const TERMS = {
  toot: TOOT,
  ostatus: OSTATUS,
  blurhash: "toot:blurhash",
  focalPoint: { "@container": "@list", "@id": "toot:focalPoint" },
  atomUri: "ostatus:atomUri",
  // Fedify's actor context lacks it: an actor's bio hashtags came out as `as:Hashtag`, which Mastodon skips.
  Hashtag: "as:Hashtag",
};

export interface Extras {
  blurhash?: string | null;
  focalPoint?: [number, number] | null;
  atomUri?: string | null;
}

/** The extras in expanded JSON-LD form. */
function expanded(extras: Extras): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (extras.blurhash) out[`${TOOT}blurhash`] = [{ "@value": extras.blurhash }];
  if (extras.focalPoint) out[`${TOOT}focalPoint`] = [{ "@list": extras.focalPoint.map((value) => ({ "@value": value })) }];
  if (extras.atomUri) out[`${OSTATUS}atomUri`] = [{ "@value": extras.atomUri }];
  return out;
}

type ToJsonLdOptions = NonNullable<Parameters<APObject["toJsonLd"]>[0]>;
/** Fedify types contexts as string maps; `focalPoint`'s definition is an object, which JSON-LD allows. */
type Context = ToJsonLdOptions["context"];

/** Fedify's compaction context for `cls`, with Mastodon's terms added (computed once per class). */
const contexts = new Map<unknown, Promise<Context>>();
function contextFor(cls: new (values: {}) => APObject): Promise<Context> {
  let context = contexts.get(cls);
  if (!context) {
    context = new cls({}).toJsonLd({ format: "compact" }).then((json) => {
      const base = (json as { "@context": unknown })["@context"];
      return [...(Array.isArray(base) ? base : [base]), TERMS] as Context;
    });
    contexts.set(cls, context);
  }
  return context;
}

/**
 * A subclass of `cls` whose top-level JSON-LD is compacted with Mastodon's terms known. Fedify clones activities
 * (to attach proofs) with `new this.constructor`, which keeps the subclass. A GET's dispatcher result is
 * serialised with no format asked: that is compacted too.
 */
function compacted<C extends new (...args: any[]) => APObject>(cls: C): C {
  return class extends cls {
    override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
      if (options.format === "expand") return super.toJsonLd(options);
      const context = options.context ?? (await contextFor(cls as never));
      return super.toJsonLd({ format: "compact", contextLoader: options.contextLoader, context });
    }
  };
}

export const CompactedNote = compacted(Note);
export const CompactedQuestion = compacted(Question);
export const CompactedCreate = compacted(Create);
export const CompactedUpdate = compacted(Update);
export const CompactedDelete = compacted(Delete);
export const CompactedPerson = compacted(Person);
export const CompactedService = compacted(Service);

/** What each object made by `withTerms` adds. */
const extrasOf = new WeakMap<object, Record<string, unknown>>();

class ExtendedDocument extends Document {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    return addExtras(this, await super.toJsonLd(options), options);
  }
}

class ExtendedTombstone extends Tombstone {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    return addExtras(this, await super.toJsonLd(options), options);
  }
}

/** Only the expanded form (nested in an activity or Note) can take them: compacted output has no term for them. */
function addExtras(object: object, json: unknown, options: ToJsonLdOptions): unknown {
  const extras = extrasOf.get(object);
  if (options.format !== "expand" || !extras || !Array.isArray(json) || typeof json[0] !== "object") return json;
  return [{ ...json[0], ...extras }, ...json.slice(1)];
}

/** A Document carrying Mastodon's attachment extras. */
export function mastodonDocument(values: ConstructorParameters<typeof Document>[0], extras: Extras): Document {
  const document = new ExtendedDocument(values);
  extrasOf.set(document, expanded(extras));
  return document;
}

/** A Tombstone carrying `atomUri`. */
export function mastodonTombstone(id: URL): Tombstone {
  const tombstone = new ExtendedTombstone({ id });
  extrasOf.set(tombstone, expanded({ atomUri: id.href }));
  return tombstone;
}
