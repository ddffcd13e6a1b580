// Commands run as child processes, as an operator runs them: what they print and how they exit.
import { BASE } from "./app.ts";

export interface CommandRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs `command` as a child process and collects its output and exit code. */
export async function runCommand(command: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<CommandRun> {
  const child = Bun.spawn(command, { ...options, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

/**
 * Runs the CLI from the sources (`bun src/main.ts <args>`) on the data directory `dataDir`, as the instance
 * at the test apps' URL, with logging off.
 */
export function runWarren(dataDir: string, ...args: string[]): Promise<CommandRun> {
  return runCommand([process.execPath, "src/main.ts", ...args], {
    env: { ...process.env, WARREN_DATA_DIR: dataDir, WARREN_URL: BASE, WARREN_LOG: "off" },
  });
}
