// tootctl-like operator commands. Each prints what it did and returns an exit code.
export async function runCli(command: string, _args: string[]): Promise<number> {
  process.stderr.write(`unknown command: ${command}\nusage: warren serve | accounts … | settings …\n`);
  return 64;
}
