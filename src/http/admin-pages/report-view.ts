// How a report reads on /admin/reports/:id: who reported whom, why, the reported statuses as plain text
// (a remote status's HTML is reduced to its text, then escaped like everything else), its state.
import type { LoadedAdminReport } from "../../domain/reports/load.ts";
import { publicId } from "../../lib/ids.ts";
import { e } from "../auth/layout.ts";
import { when } from "./page.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { LoadedStatus } from "../../domain/statuses/loaded.ts";

export const acct = (account: AccountRecord) => (account.domain ? `@${account.username}@${account.domain}` : `@${account.username}`);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", nbsp: " " };

/** The text of a status: its source when local, else its HTML without tags. */
export function statusText(status: LoadedStatus["status"]): string {
  if (status.text) return status.text;
  return status.content
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>\s*<p[^>]*>/gi, "\n\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!);
}

function statusItem({ status, author, media }: LoadedStatus): string {
  const warning = status.spoilerText ? `<p><strong>Content warning:</strong> ${e(status.spoilerText)}</p>` : "";
  const attachments = media.length ? `<p class="muted">${media.length} attachment${media.length === 1 ? "" : "s"}${status.sensitive ? ", marked sensitive" : ""}.</p>` : "";
  const gone = status.deletedAt !== null ? ' <strong>(deleted)</strong>' : "";
  return `<li><p class="muted">${e(acct(author))}, ${when(status.createdAt)}, ${e(status.visibility)}${gone}</p>${warning}<blockquote class="status">${e(statusText(status))}</blockquote>${attachments}</li>`;
}

function reportState(loaded: LoadedAdminReport): string {
  const { report, actionTakenBy } = loaded;
  if (report.actionTakenAt === null) return "Unresolved";
  return `Resolved ${when(report.actionTakenAt)}${actionTakenBy ? ` by ${acct(actionTakenBy.account)}` : ""}`;
}

/** The facts of a report and its statuses. */
export function reportDetails(loaded: LoadedAdminReport): string {
  const { report, account, target, assigned, rules, statuses } = loaded;
  const targetLink = `<a href="/admin/accounts/${publicId(target.account.id)}">${e(acct(target.account))}</a>`;
  const facts = [
    `<li>State: ${e(reportState(loaded))}</li>`,
    `<li>Reported account: ${targetLink}</li>`,
    `<li>Reported by: ${e(acct(account.account))}, ${when(report.createdAt)}</li>`,
    `<li>Category: ${e(report.category)}</li>`,
    rules.length ? `<li>Rules broken: ${rules.map((rule) => e(rule.text)).join("; ")}</li>` : "",
    assigned ? `<li>Assigned to: ${e(acct(assigned.account))}</li>` : "",
    report.forwarded ? "<li>Forwarded to the account's server</li>" : "",
  ].join("");
  const comment = report.comment ? `<h2>Comment</h2><blockquote>${e(report.comment)}</blockquote>` : "<p class=\"muted\">No comment.</p>";
  const listed = statuses.length ? `<ul>${statuses.map(statusItem).join("\n")}</ul>` : "<p>No status attached.</p>";
  return `<ul>${facts}</ul>${comment}<h2>Reported statuses (${statuses.length})</h2>${listed}`;
}
