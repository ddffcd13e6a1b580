// WARREN_PROCESS_HEADER=on: every answer names the process that gave it (X-Warren-Pid), so a test or an
// operator can see how connections are shared out among WARREN_PROCESSES server processes. Off by default:
// a pid is nothing clients need.
import { Elysia } from "elysia";

const pid = String(process.pid);

export const processHeaderPlugin = (on: boolean) =>
  on ? new Elysia({ name: "warren-process-header" }).onRequest(({ set }) => void (set.headers["x-warren-pid"] = pid)) : new Elysia({ name: "warren-process-header" });
