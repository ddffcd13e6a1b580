// `warren settings registrations open|approved|close` (owned by the instance work; see docs/cli.md)
export async function runSettingsCommand(_args: string[]): Promise<number> {
  process.stderr.write("settings: not implemented yet\n");
  return 1;
}
