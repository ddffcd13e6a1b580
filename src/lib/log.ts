// One-line structured logs on stderr. Quiet under tests unless WARREN_LOG is set. WARREN_LOG_FORMAT=json
// writes each line as one JSON object; a line written while a request is handled then carries the request's
// id (src/http/metrics/request-log.ts puts it in `requestScope`), as its X-Request-Id answer header does.
import { AsyncLocalStorage } from "node:async_hooks";

const enabled = process.env.WARREN_LOG !== "off" && !(process.env.NODE_ENV === "test" && !process.env.WARREN_LOG);
const json = process.env.WARREN_LOG_FORMAT === "json";

/** The request being handled, in JSON log mode only (entered per request: docs/metrics.md "Logs"). */
export const requestScope = new AsyncLocalStorage<{ id: string }>();

export const jsonLogs = json;

function write(level: string, message: string, fields?: Record<string, unknown>) {
  if (!enabled && level !== "error") return;
  const time = new Date().toISOString();
  if (json) {
    const requestId = requestScope.getStore()?.id;
    const line = { time, level, msg: message, ...(requestId !== undefined && { request_id: requestId }), ...fields };
    process.stderr.write(JSON.stringify(line) + "\n");
    return;
  }
  const extra = fields ? " " + JSON.stringify(fields) : "";
  process.stderr.write(`${time} ${level} ${message}${extra}\n`);
}

export const log = {
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
