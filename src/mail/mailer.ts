// Outgoing e-mail. With SMTP configured (WARREN_SMTP_URL, or WARREN_SMTP_HOST/PORT/USER/PASSWORD) each mail
// is sent through nodemailer; with none, it is written as an .eml file under <data dir>/outbox/, so a fresh
// install has a real, inspectable mail path without a mail server. Mail is only ever sent from jobs.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config, SmtpConfig } from "../config.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per event (e.g. the follow request's id): the Message-ID and the outbox file name, so a job
   * that runs twice overwrites its file and lets receiving servers spot the duplicate. */
  key: string;
}

type CreateTransport = typeof import("nodemailer").createTransport;

export function outboxDir(config: Config): string {
  return join(config.dataDir, "outbox");
}

function smtpTransport(createTransport: CreateTransport, smtp: SmtpConfig) {
  if (smtp.url) return createTransport(smtp.url);
  const port = smtp.port ?? 587;
  return createTransport({
    host: smtp.host,
    port,
    secure: port === 465,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
  });
}

function fromAddress(config: Config): string {
  return `"${config.instanceTitle.replace(/["\\]/g, "")}" <${config.smtp?.from ?? `notifications@${config.domain.replace(/:\d+$/, "")}`}>`;
}

/** Sends one mail, or files it in the outbox. Throws on failure, so the job retries. */
export async function sendMail(config: Config, mail: Mail): Promise<void> {
  // Loaded with the first mail, not at start-up (~28 ms of the server's import: docs/benchmarks.md).
  const { createTransport } = await import("nodemailer");
  const message = {
    from: fromAddress(config),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.key}@${config.domain.replace(/:\d+$/, "")}>`,
  };
  if (config.smtp) {
    const transport = smtpTransport(createTransport, config.smtp);
    try {
      await transport.sendMail(message);
    } finally {
      transport.close();
    }
    return;
  }
  const composed = await createTransport({ streamTransport: true, buffer: true, newline: "unix" }).sendMail(message);
  const dir = outboxDir(config);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${mail.key.replace(/[^A-Za-z0-9._-]/g, "_")}.eml`);
  // Written whole, then renamed: a reader of the outbox never sees half a message.
  writeFileSync(`${file}.tmp`, composed.message as Buffer);
  renameSync(`${file}.tmp`, file);
}
