// Fan-out of handler events to main-thread listeners. Events from worker threads arrive as messages and
// are delivered through the same hub, so listeners cannot tell where a handler ran.
import { log } from "../lib/log.ts";
import type { JobEvent, JobEventListener } from "./queue.ts";

export class EventHub {
  private listeners = new Set<JobEventListener>();

  on(listener: JobEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: JobEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error("job event listener failed", { error: String(error) });
      }
    }
  }
}
