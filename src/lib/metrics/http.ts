// HTTP request counts and durations by route pattern (`/api/v1/statuses/:id`, never the raw path, so the
// number of series is bounded by the route table) and status. Main thread only: requests are served there.
// An observation is two map lookups, a short bucket scan and a few adds; nothing is allocated once a
// route and status have been seen.
import { labelText, type Cell, type Collected, type Sample } from "./registry.ts";

/** Upper bounds (seconds) of the duration histogram's buckets; +Inf is implied. */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

class RouteStats {
  readonly byStatus = new Map<number, Cell>();
  /** Observations per bucket (not cumulative); the last is +Inf. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);
  sum = 0;
  count = 0;
}

const routes = new Map<string, RouteStats>();

export function observeRequest(route: string, status: number, seconds: number): void {
  let stats = routes.get(route);
  if (!stats) routes.set(route, (stats = new RouteStats()));
  const cell = stats.byStatus.get(status);
  if (cell) cell.value++;
  else stats.byStatus.set(status, { value: 1 });
  let bucket = 0;
  while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
  stats.buckets[bucket]!++;
  stats.sum += seconds;
  stats.count++;
}

/** A request answered without a duration worth measuring (refused by a throttle before routing). */
export function countRequest(route: string, status: number): void {
  let stats = routes.get(route);
  if (!stats) routes.set(route, (stats = new RouteStats()));
  const cell = stats.byStatus.get(status);
  if (cell) cell.value++;
  else stats.byStatus.set(status, { value: 1 });
}

export function collectHttp(): Collected[] {
  const requests: Sample[] = [];
  const durations: Sample[] = [];
  for (const [route, stats] of routes) {
    for (const [status, cell] of stats.byStatus) requests.push({ labels: labelText(["route", "status"], [route, String(status)]), value: cell.value });
    if (stats.count === 0) continue;
    let cumulative = 0;
    stats.buckets.forEach((n, i) => {
      cumulative += n;
      const le = i < DURATION_BUCKETS.length ? String(DURATION_BUCKETS[i]) : "+Inf";
      durations.push({ suffix: "_bucket", labels: labelText(["route", "le"], [route, le]), value: cumulative });
    });
    const labels = labelText(["route"], [route]);
    durations.push({ suffix: "_sum", labels, value: stats.sum }, { suffix: "_count", labels, value: stats.count });
  }
  return [
    { name: "warren_http_requests_total", help: "HTTP requests answered, by route pattern and status", type: "counter", samples: requests },
    { name: "warren_http_request_duration_seconds", help: "Time from a request's arrival to its answer, by route pattern", type: "histogram", samples: durations },
  ];
}
