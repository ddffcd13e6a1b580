// The mails a test app wrote to its outbox (no SMTP server configured: <data dir>/outbox/*.eml), and the links in
// them: what a person would click in the confirmation and password reset mails.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./eventually.ts";

export interface OutboxMail {
  name: string;
  /** The mail with quoted-printable soft breaks and `=3D` undone, so links can be matched whole. */
  text: string;
}

export function outboxMails(dataDir: string): OutboxMail[] {
  const dir = join(dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => ({ name, text: readFileSync(join(dir, name), "utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "=") }));
}

/**
 * Waits for the mail of `kind` (its file name's start, e.g. "confirmation-", "password-reset-") to `address` and
 * gives back the path and query of its link to `path` (e.g. "/auth/confirmation?confirmation_token=").
 */
export async function mailedLink(dataDir: string, address: string, kind: string, path: string): Promise<string> {
  const pattern = new RegExp(`https?://[^/\\s]+(${path.replace(/[?]/g, "\\?")}[A-Za-z0-9_=-]+)`);
  return eventually(() => {
    const mail = outboxMails(dataDir).findLast((m) => m.name.startsWith(kind) && m.text.includes(`To: ${address}`));
    return mail ? pattern.exec(mail.text)?.[1] : undefined;
  }, { what: `a ${kind} mail to ${address}`, timeoutMs: 10_000 });
}
