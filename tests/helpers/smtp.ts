// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, for e-mail tests:
// `inbox` holds them in arrival order; `refuse` makes it answer 451 (try later) to every recipient meanwhile.
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  inbox: ReceivedMail[];
  /** While true, every recipient is refused with 451; `refusals` counts them. */
  refuse: boolean;
  refusals: number;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: "",
    inbox: [],
    refuse: false,
    refusals: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (sink.refuse) sink.refusals++;
      callback(sink.refuse ? Object.assign(new Error("try later"), { responseCode: 451 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const envelope = session.envelope;
        sink.inbox.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : "",
          to: envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`;
  return sink;
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read the text of a message. */
export const readableMail = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

/** A header of the message, unfolded. */
export function mailHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1];
}
