// What the test peer found wrong in what Warren sent. Issue 25 fixed every problem it knew of, so the tests assert
// that this is empty; a problem found later is fixed, not listed here.
import type { PeerRequest } from "./server.ts";

/** Every problem of `requests`, prefixed by the request it was found in. */
export function unexpectedProblems(requests: PeerRequest[]): string[] {
  return requests.flatMap((r) => r.problems.map((p) => `${r.method} ${r.target} ${r.activity?.type ?? ""}: ${p}`));
}
