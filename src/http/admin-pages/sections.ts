// The sections of the /admin pages and the role permissions each needs (docs/admin.md, "Pages"), apart from
// the pages so that the settings pages can tell whether to link to /admin.
import { roleCan, type Permission } from "../../domain/accounts/roles.ts";
import type { RoleName } from "../../model/accounts.ts";

export interface AdminSection {
  path: string;
  title: string;
  /** The role needs any of these (as the admin API's route for the same records). */
  permissions: readonly Permission[];
}

export const SECTIONS = {
  signUps: { path: "/admin/sign-ups", title: "Pending sign-ups", permissions: ["manage_users"] },
  reports: { path: "/admin/reports", title: "Reports", permissions: ["manage_reports"] },
  accounts: { path: "/admin/accounts", title: "Accounts", permissions: ["manage_users"] },
  domainBlocks: { path: "/admin/domain-blocks", title: "Domain blocks", permissions: ["manage_federation"] },
  emailDomainBlocks: { path: "/admin/email-domain-blocks", title: "E-mail domain blocks", permissions: ["manage_blocks"] },
  rules: { path: "/admin/rules", title: "Server rules", permissions: ["manage_rules"] },
  registrations: { path: "/admin/registrations", title: "Registrations", permissions: ["manage_settings"] },
  feedAccess: { path: "/admin/feed-access", title: "Feed access", permissions: ["manage_settings"] },
  announcements: { path: "/admin/announcements", title: "Announcements", permissions: ["manage_announcements"] },
} as const satisfies Record<string, AdminSection>;

const ALL_SECTIONS: AdminSection[] = Object.values(SECTIONS);

/** The sections a role may open; none for a plain user. */
export const sectionsFor = (role: RoleName): AdminSection[] => ALL_SECTIONS.filter((s) => roleCan(role, ...s.permissions));

/** Any staff role: one that may open at least one section. */
export const isStaff = (role: RoleName) => sectionsFor(role).length > 0;

/** The whole administration: every staff member may open /admin, which lists their sections. */
export const HOME: AdminSection = { path: "/admin", title: "Administration", permissions: [...new Set(ALL_SECTIONS.flatMap((s) => s.permissions))] };

