// The gauges of /metrics, read when scraped: the job queue's backlog from its LMDB keys (so jobs written by
// any thread or process count), LMDB's map, the streaming hub's connections and the process's CPU and memory.
import type { AppDeps as Deps } from "../../deps.ts";
import { collectHttp } from "../../lib/metrics/http.ts";
import { labelText, type Collected } from "../../lib/metrics/registry.ts";
import { jobBacklog, mapUsage } from "../../domain/instance/gauges.ts";
import { streamHub } from "../streaming/hub.ts";

const gauge = (name: string, help: string, value: number): Collected => ({ name, help, type: "gauge", samples: [{ labels: "", value }] });
const total = (name: string, help: string, value: number): Collected => ({ name, help, type: "counter", samples: [{ labels: "", value }] });

function jobMetrics(deps: Deps): Collected[] {
  const backlog = jobBacklog(deps.store);
  const counts = deps.jobs.stats();
  return [
    {
      name: "warren_jobs_waiting",
      help: "Jobs waiting in each lane, due or delayed",
      type: "gauge",
      samples: backlog.map(({ lane, waiting }) => ({ labels: labelText(["lane"], [lane]), value: waiting })),
    },
    {
      name: "warren_job_lag_seconds",
      help: "How long the oldest due job of each lane has waited past its due time (0 when none is due)",
      type: "gauge",
      samples: backlog.map(({ lane, lagSeconds }) => ({ labels: labelText(["lane"], [lane]), value: lagSeconds })),
    },
    gauge("warren_jobs_running", "Jobs claimed by a runner and not finished", counts.claimed),
    gauge("warren_jobs_dead", "Jobs in the dead letters (given up after their last attempt)", counts.dead),
  ];
}

function storeMetrics(deps: Deps): Collected[] {
  const usage = mapUsage(deps.store);
  return [
    gauge("warren_lmdb_map_used_bytes", "Bytes of the LMDB map up to its last used page (free pages inside included)", usage.usedBytes),
    gauge("warren_lmdb_map_size_bytes", "Size of the LMDB memory map (the most the data file may grow to)", usage.mapSizeBytes),
    gauge("warren_lmdb_readers", "LMDB reader slots in use (read snapshots held by every thread and process)", usage.readers),
  ];
}

const startedAt = Date.now() / 1000 - process.uptime();

function processMetrics(): Collected[] {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return [
    total("process_cpu_user_seconds_total", "User CPU time of the process, every thread", cpu.user / 1e6),
    total("process_cpu_system_seconds_total", "System CPU time of the process, every thread", cpu.system / 1e6),
    total("process_cpu_seconds_total", "User and system CPU time of the process, every thread", (cpu.user + cpu.system) / 1e6),
    gauge("process_resident_memory_bytes", "Resident memory of the process", memory.rss),
    gauge("process_heap_bytes", "JavaScript heap of the main thread (total)", memory.heapTotal),
    gauge("process_heap_used_bytes", "JavaScript heap of the main thread in use", memory.heapUsed),
    gauge("process_external_memory_bytes", "Memory held outside the heap by JavaScript objects (buffers)", memory.external),
    gauge("process_start_time_seconds", "When the process started (seconds since the epoch)", startedAt),
  ];
}

export function collect(deps: Deps): Collected[] {
  return [
    ...collectHttp(),
    ...jobMetrics(deps),
    ...storeMetrics(deps),
    gauge("warren_streaming_connections", "Open streaming connections (WebSocket and server-sent events)", streamHub(deps).connections),
    ...processMetrics(),
  ];
}
