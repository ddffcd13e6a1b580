// `warren accounts create|modify …` (owned by the accounts work; see docs/cli.md)
export async function runAccountsCommand(_args: string[]): Promise<number> {
  process.stderr.write("accounts: not implemented yet\n");
  return 1;
}
