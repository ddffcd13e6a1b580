// The ways a request is spoiled. Each strategy turns the valid parameters of one place (body or query)
// into hostile ones; `proto` also adds pairs such as `__proto__[role]=Owner` that only exist as text.
import { RawJson, bag, type Bag, type RawPair } from "./encode.ts";
import type { Random } from "./random.ts";
import { badId, hugeArray, hugeString, longText, unicodeEdge, wrongType } from "./values.ts";

export const STRATEGY_WEIGHTS = {
  valid: 24,
  wrongType: 10,
  missing: 5,
  extra: 8,
  huge: 4,
  long: 8,
  unicode: 10,
  proto: 8,
  deep: 4,
  badIds: 9,
  queryAbuse: 5,
  malformedBody: 8,
  wrongContentType: 5,
  wrongMethod: 3,
  rawSocket: 2,
  /** Not drawn: the requests of INBOX_OPERATIONS (inbox.ts). */
  inbox: 0,
};

export type Strategy = keyof typeof STRATEGY_WEIGHTS;

/** Parameters of one place, and pairs to append to its form or query encoding verbatim. */
export interface Place {
  values: Bag;
  declared: string[];
  required: string[];
  raw: RawPair[];
}

const POLLUTION_NAMES = ["__proto__", "constructor", "prototype"];
/** Values that, if they leaked into Object.prototype, would change what later requests do. */
const POLLUTION_PAYLOADS: [string, unknown][] = [
  ["role", "Owner"],
  ["visibility", "direct"],
  ["status", "polluted"],
  ["admin", true],
  ["approved", false],
  ["confirmed", false],
  ["scopes", "admin:write"],
  ["sensitive", true],
  ["spoiler_text", "polluted"],
  ["locked", true],
  ["permissions", "1"],
];

function someKeys(rng: Random, keys: string[]): string[] {
  const chosen = keys.filter(() => rng.chance(0.4));
  return chosen.length > 0 || keys.length === 0 ? chosen : [rng.pick(keys)];
}

function deepJson(depth: number, rng: Random): RawJson {
  return rng.chance(0.5) ? new RawJson("[".repeat(depth) + "]".repeat(depth)) : new RawJson('{"a":'.repeat(depth) + "1" + "}".repeat(depth));
}

function pollution(rng: Random, place: Place): void {
  const [field, payload] = rng.pick(POLLUTION_PAYLOADS);
  const name = rng.pick(POLLUTION_NAMES);
  const inner = bag();
  inner[field] = payload;
  if (name === "constructor") {
    const proto = bag();
    proto[field] = payload;
    inner.prototype = proto;
    delete inner[field];
  }
  place.values[name] = inner;
  const nestIn = place.declared.length > 0 ? rng.pick(place.declared) : "source";
  place.raw.push(
    rng.pick<RawPair>([
      [`__proto__[${field}]`, String(payload)],
      [`constructor[prototype][${field}]`, String(payload)],
      [`${nestIn}[__proto__][${field}]`, String(payload)],
      [`__proto__[]`, String(payload)],
      [`__proto__.${field}`, String(payload)],
      [`prototype[${field}]`, String(payload)],
      [`${nestIn}[constructor][prototype][${field}]`, String(payload)],
    ]),
  );
}

export function mutate(rng: Random, strategy: Strategy, place: Place): void {
  const { values } = place;
  const present = Object.keys(values);
  switch (strategy) {
    case "wrongType":
      for (const key of someKeys(rng, place.declared)) values[key] = wrongType(rng);
      return;
    case "missing":
      for (const key of rng.chance(0.5) ? place.required : present) {
        if (rng.chance(0.3)) values[key] = "";
        else delete values[key];
      }
      return;
    case "extra":
      for (let i = rng.int(1, 5); i > 0; i--) {
        values[rng.pick(["x", "admin", "role", "id", "a[b]", "[]", unicodeEdge(rng), "k".repeat(rng.int(1, 5000))])] = rng.chance(0.5) ? unicodeEdge(rng) : wrongType(rng);
      }
      return;
    case "huge": {
      const key = place.declared.length > 0 && rng.chance(0.8) ? rng.pick(place.declared) : "padding";
      values[key] = rng.chance(0.75) ? hugeString(rng) : hugeArray(rng);
      return;
    }
    case "unicode":
      for (const key of someKeys(rng, place.declared)) values[key] = unicodeEdge(rng);
      return;
    case "long":
      // Names, tags, domains, URLs and ids too long for a storage key: every one must answer as a miss or a 422.
      for (const key of someKeys(rng, place.declared)) values[key] = rng.chance(0.1) ? `#${longText(rng)}` : longText(rng);
      return;
    case "proto":
      pollution(rng, place);
      return;
    case "deep": {
      const depth = rng.pick([64, 1_000, 10_000, 100_000]);
      const key = place.declared.length > 0 ? rng.pick(place.declared) : "a";
      values[key] = deepJson(depth, rng);
      // Nested names: shallow enough to pass the URL limit in a query, deep enough to hurt a recursive parser.
      place.raw.push([key + "[a]".repeat(rng.pick([30, 500, 2_000, 20_000])), "1"]);
      return;
    }
    case "badIds":
      for (const key of place.declared.filter((k) => k === "id" || k.endsWith("_id") || k.endsWith("_ids") || k === "list")) {
        values[key] = rng.chance(0.7) ? badId(rng) : [badId(rng), badId(rng)];
      }
      return;
    default:
      return;
  }
}
