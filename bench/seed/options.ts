// Command-line options of bench/seed.ts and bench/run.ts's instance size: `--name value` or `--name=value`.

export function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  if (at >= 0) return args[at + 1];
  return args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

export function numberFlag(args: readonly string[], name: string, fallback: number): number {
  const raw = flag(args, name);
  if (raw === undefined) return fallback;
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} wants a whole number, not ${raw}`);
  return value;
}

export interface SeedSize {
  accounts: number;
  statuses: number;
  seed: number;
}

/** Small enough for `npm run bench` to seed in well under a minute. */
export const DEFAULT_SIZE: SeedSize = { accounts: 1000, statuses: 20_000, seed: 1 };

export function seedSize(args: readonly string[]): SeedSize {
  return {
    accounts: numberFlag(args, "accounts", DEFAULT_SIZE.accounts),
    statuses: numberFlag(args, "statuses", DEFAULT_SIZE.statuses),
    seed: numberFlag(args, "seed", DEFAULT_SIZE.seed),
  };
}

/** Where an instance of this size is kept when no --data is given. */
export function defaultSeedDir(root: string, size: SeedSize): string {
  return `${root}/.bench/seeds/a${size.accounts}-s${size.statuses}-seed${size.seed}`;
}
