// What the test peer found wrong in what Warren sent: every problem its checks recorded, prefixed by the request
// it was found in. Tests assert that this is empty.
import type { PeerRequest } from "./server.ts";

export function problemsIn(requests: PeerRequest[]): string[] {
  return requests.flatMap((r) => r.problems.map((p) => `${r.method} ${r.target} ${r.activity?.type ?? ""}: ${p}`));
}
