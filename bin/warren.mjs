#!/usr/bin/env node
// `npx warren …` on a machine that has only Node.js and npm: runs src/main.ts with the Bun that `npm ci`
// installed (the `bun` devDependency), passing the arguments, the terminal and signals through.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bun = join(root, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");
if (!existsSync(bun)) {
  process.stderr.write(`warren: Bun is not installed in ${root}; run \`npm ci\` there first\n`);
  process.exit(1);
}
const child = spawn(bun, [join(root, "src", "main.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
