// The privacy policy every Warren server shows (GET /privacy-policy, /api/v1/instance/privacy_policy): what
// the software stores and sends, written for the people who use the server.
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";

/** When the text below last changed. */
const UPDATED_AT = Date.UTC(2026, 10, 23);

export interface PrivacyPolicy {
  html: string;
  updatedAt: number;
}

export function privacyPolicy(config: Config): PrivacyPolicy {
  const contact = config.contactEmail
    ? `<a href="mailto:${escapeHtml(config.contactEmail)}">${escapeHtml(config.contactEmail)}</a>`
    : "the operator of this server";
  const html = `<h2>What this server stores</h2>
<ul>
<li>Your account: user name, display name, bio, profile fields, avatar and header. These are public.</li>
<li>Your e-mail address, used only for mail about your account (confirmation, follow requests), and your password, stored only as a one-way hash.</li>
<li>What you post and upload, with its time, visibility and the app you used, and what you do: follows, favourites, boosts, bookmarks, blocks and mutes.</li>
<li>The access tokens of the apps you sign in with, until you revoke them.</li>
</ul>
<h2>Who can see it</h2>
<ul>
<li>Public and unlisted posts and your profile can be seen by anyone and are sent to other servers of the network.</li>
<li>Followers-only posts are shown to your followers and sent to the servers they use.</li>
<li>Your e-mail address, blocks, mutes and bookmarks are never shown to other people.</li>
<li>The operators of this server, and of the servers your posts are sent to, can read what is stored on their servers.</li>
</ul>
<h2>Deleting</h2>
<p>When you delete a post it is removed from this server and a deletion is sent to the servers that received it. Other servers are asked, but cannot be forced, to delete their copies.</p>
<h2>What this server does not do</h2>
<p>It shows no advertising, sells no data and loads no third-party trackers.</p>
<h2>Contact</h2>
<p>Questions about your data: ${contact}.</p>`;
  return { html, updatedAt: UPDATED_AT };
}
