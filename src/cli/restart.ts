// `warren restart`: asks the supervisor serving this data directory (found through its pid file) to replace
// its server processes one at a time (SIGUSR2; src/cluster/supervisor.ts). Returns at once; the supervisor
// logs when the rolling restart is done.
import { loadConfig } from "../config.ts";
import { runningServerPid } from "../lib/server-pid.ts";

export function runRestartCommand(): number {
  const { dataDir } = loadConfig();
  const pid = runningServerPid(dataDir);
  if (pid === null) {
    process.stderr.write(`no supervised warren serves ${dataDir} (WARREN_PROCESSES > 1 starts one)\n`);
    return 1;
  }
  // A lone server (WARREN_PROCESSES=1) names itself in the pid file: it logs that it cannot restart in place.
  process.kill(pid, "SIGUSR2");
  process.stdout.write(`rolling restart asked of warren ${pid}\n`);
  return 0;
}
