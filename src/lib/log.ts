// One-line structured logs on stderr. Quiet under tests unless WARREN_LOG is set.
const enabled = process.env.WARREN_LOG !== "off" && !(process.env.NODE_ENV === "test" && !process.env.WARREN_LOG);

function write(level: string, message: string, fields?: Record<string, unknown>) {
  if (!enabled && level !== "error") return;
  const extra = fields ? " " + JSON.stringify(fields) : "";
  process.stderr.write(`${new Date().toISOString()} ${level} ${message}${extra}\n`);
}

export const log = {
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
