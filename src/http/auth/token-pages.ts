// The answer to a mailed link that no longer works: unknown (404), expired or used (410).
import { htmlPage, links, paragraph } from "./layout.ts";

const TEXT = {
  unknown: [404, "This link is not valid. Check that you opened the whole link from the e-mail."],
  expired: [410, "This link has expired. Ask for a new one."],
  used: [410, "This link has already been used, or what it was for has changed since. Ask for a new one if you still need it."],
} as const;

export function deadLinkPage(siteTitle: string, title: string, reason: keyof typeof TEXT, again: [href: string, text: string]): Response {
  const [status, text] = TEXT[reason];
  return htmlPage(siteTitle, status, title, `${paragraph(text, "error")}${links([again, ["/auth/sign_in", "Sign in"]])}`);
}
