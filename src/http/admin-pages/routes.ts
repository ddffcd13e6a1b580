// The /admin pages (docs/admin.md, "Pages"), mounted together.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { adminAccountPages } from "./accounts.ts";
import { adminAnnouncementPages } from "./announcements.ts";
import { adminDomainBlockPages } from "./domain-blocks.ts";
import { adminEmailDomainBlockPages } from "./email-domain-blocks.ts";
import { adminHomePage } from "./home.ts";
import { adminRegistrationPages } from "./registrations.ts";
import { adminFeedAccessPages } from "./feed-access.ts";
import { adminReportPages } from "./reports.ts";
import { adminRulePages } from "./rules.ts";
import { adminSignUpPages } from "./sign-ups.ts";

export const adminPages = (deps: Deps) =>
  new Elysia({ name: "admin-pages" })
    .use(adminHomePage(deps))
    .use(adminSignUpPages(deps))
    .use(adminReportPages(deps))
    .use(adminAccountPages(deps))
    .use(adminDomainBlockPages(deps))
    .use(adminEmailDomainBlockPages(deps))
    .use(adminRulePages(deps))
    .use(adminRegistrationPages(deps))
    .use(adminFeedAccessPages(deps))
    .use(adminAnnouncementPages(deps));
