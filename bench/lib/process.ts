// Child processes for the benchmark: free ports, waiting for HTTP, stopping cleanly.
import type { Subprocess } from "bun";

export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Collects a child's output so a failure can show it. */
export function captureOutput(proc: Subprocess<"ignore", "pipe", "pipe">): () => string {
  let text = "";
  const decoder = new TextDecoder();
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
    })();
  }
  return () => text;
}

/** Polls `url` until it answers `status` (any status when null). */
export async function waitForHttp(url: string, proc: Subprocess, output: () => string, status: number | null = 200, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${url}: server exited with ${proc.exitCode}\n${output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (status === null || res.status === status) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer ${status ?? ""} within ${timeoutMs} ms\n${output()}`);
}

export async function stop(proc: Subprocess) {
  if (proc.exitCode !== null) return;
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
  if (!exited) proc.kill("SIGKILL");
}

export async function run(cmd: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
  const proc = Bun.spawn(cmd, { ...options, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}
