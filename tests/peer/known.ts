// Problems the test peer finds in what Warren sends today, each tied to its item of issue 25. Tests assert
// that nothing else is found; fixing an item means deleting its line here (and the tests then hold Warren to it).
import type { PeerRequest } from "./server.ts";

const KNOWN: { item: number; pattern: RegExp }[] = [
  { item: 1, pattern: /is a fragment of the actor URI/ },
  { item: 1, pattern: /embedded object has no id/ },
];

/** Every problem of `requests` that is not a known finding, prefixed by the request it was found in. */
export function unexpectedProblems(requests: PeerRequest[]): string[] {
  return requests.flatMap((r) =>
    r.problems.filter((p) => !KNOWN.some((k) => k.pattern.test(p))).map((p) => `${r.method} ${r.target} ${r.activity?.type ?? ""}: ${p}`),
  );
}
