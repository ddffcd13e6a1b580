// buildApp(deps): every route group composed on the shared plugins. Tests import this; the server and the
// single executable serve it.
import { processHeaderPlugin } from "./http/plugins/process-header.ts";
import { Elysia, type AnyElysia } from "elysia";
import { Kind } from "@sinclair/typebox";
import { loadConfig, type Config } from "./config.ts";
import type { AppDeps } from "./deps.ts";
import { openStore } from "./store/db.ts";
import { openJobQueue } from "./compose.ts";
import { jobMetrics } from "./lib/metrics/counters.ts";
import { ensureVapidKeys } from "./domain/push/vapid.ts";
import { corsPlugin } from "./http/plugins/cors.ts";
import { rateLimitsPlugin } from "./http/plugins/rate-limits.ts";
import { errorsPlugin } from "./http/plugins/errors.ts";
import { indexRouteSchemas, paramsPlugin } from "./http/plugins/params.ts";
import { cachePlugin } from "./http/plugins/cache.ts";
import { documentCommonErrors, documentWebSockets, openapiDocumentation, openapiPlugin } from "./http/openapi.ts";
import { oauthRoutes } from "./http/oauth/routes.ts";
import { appsRoutes } from "./http/api/v1/apps.ts";
import { accountsRoutes } from "./http/api/v1/accounts.ts";
import { relationshipRoutes } from "./http/api/v1/relationships.ts";
import { statusesRoutes } from "./http/api/v1/statuses.ts";
import { pollRoutes } from "./http/api/v1/polls.ts";
import { scheduledStatusRoutes } from "./http/api/v1/scheduled-statuses.ts";
import { timelineRoutes } from "./http/api/v1/timelines.ts";
import { listRoutes } from "./http/api/v1/lists.ts";
import { collectionsRoutes } from "./http/api/v1/collections.ts";
import { conversationRoutes } from "./http/api/v1/conversations.ts";
import { tagRoutes } from "./http/api/v1/tags.ts";
import { featuredTagRoutes } from "./http/api/v1/featured-tags.ts";
import { endorsementRoutes } from "./http/api/v1/endorsements.ts";
import { accountExtraRoutes } from "./http/api/v1/account-extras.ts";
import { domainBlockRoutes } from "./http/api/v1/domain-blocks.ts";
import { threadMuteRoutes } from "./http/api/v1/thread-mutes.ts";
import { markerRoutes } from "./http/api/v1/markers.ts";
import { notificationV1Routes } from "./http/api/v1/notifications.ts";
import { streamingRoutes } from "./http/streaming/routes.ts";
import { instanceV1Routes } from "./http/api/v1/instance.ts";
import { instanceV2Routes } from "./http/api/v2/instance.ts";
import { notificationV2Routes } from "./http/api/v2/notifications.ts";
import { trendRoutes } from "./http/api/v1/trends.ts";
import { announcementRoutes } from "./http/api/v1/announcements.ts";
import { customEmojiRoutes } from "./http/api/v1/custom-emojis.ts";
import { adminTrendRoutes } from "./http/api/v1/admin/trends.ts";
import { notificationPolicyRoutes } from "./http/api/v2/notification-policy.ts";
import { notificationRequestRoutes } from "./http/api/v1/notification-requests.ts";
import { wellKnownRoutes } from "./http/wellknown/routes.ts";
import { instanceWebRoutes } from "./http/instance/routes.ts";
import { publicPageRoutes } from "./http/pages/routes.ts";
import { mediaFileRoutes } from "./http/media-files.ts";
import { mediaV1Routes } from "./http/api/v1/media.ts";
import { mediaV2Routes } from "./http/api/v2/media.ts";
import { searchRoutes } from "./http/api/v2/search.ts";
import { filterV1Routes } from "./http/api/v1/filters.ts";
import { filterV2Routes } from "./http/api/v2/filters.ts";
import { suggestionV1Routes } from "./http/api/v1/suggestions.ts";
import { suggestionV2Routes } from "./http/api/v2/suggestions.ts";
import { pushRoutes } from "./http/api/v1/push.ts";
import { annualReportRoutes } from "./http/api/v1/annual-reports.ts";
import { reportRoutes } from "./http/api/v1/reports.ts";
import { adminReportRoutes } from "./http/api/v1/admin/reports.ts";

import { adminAccountV1Routes } from "./http/api/v1/admin/accounts.ts";
import { adminAccountV2Routes } from "./http/api/v2/admin/accounts.ts";
import { adminDomainBlockRoutes } from "./http/api/v1/admin/domain-blocks.ts";
import { adminCanonicalEmailBlockRoutes } from "./http/api/v1/admin/canonical-email-blocks.ts";
import { adminDomainAllowRoutes } from "./http/api/v1/admin/domain-allows.ts";
import { adminIpBlockRoutes } from "./http/api/v1/admin/ip-blocks.ts";
import { adminMeasureRoutes } from "./http/api/v1/admin/measures.ts";
import { ipBlockRefusal, ipBlocksPlugin } from "./http/plugins/ip-blocks.ts";
import { federationResponse } from "./federation/route.ts";
import { federationRemote } from "./federation/remote.ts";
import { datePlugin } from "./http/plugins/date.ts";
import { adminPages } from "./http/admin-pages/routes.ts";
import { answeredEarly, requestMetricsPlugin } from "./http/metrics/instrument.ts";
import { metricsRoutes } from "./http/metrics/routes.ts";
import { requestLogPlugin } from "./http/metrics/request-log.ts";
import { authWebRoutes } from "./http/auth/routes.ts";
import { emailRoutes } from "./http/api/v1/emails.ts";

export function createDeps(config: Config = loadConfig()): AppDeps {
  const store = openStore(config.dataDir);
  ensureVapidKeys(store);
  const jobs = openJobQueue(store, config, { observer: jobMetrics });
  return { config, store, jobs, remote: federationRemote };
}

// Typed as AnyElysia: the type inferred from thirty-odd route groups went past TypeScript's instantiation
// depth (TS2589 wherever ReturnType<typeof buildApp> was used), and nothing reads the routes' types.
export function buildApp(deps: AppDeps): AnyElysia {
  // Presenters build exactly the schema's keys, so responses need no normalising pass (it cost ~10% of a read).
  const documentation = openapiDocumentation(deps);
  const app: AnyElysia = new Elysia({ name: "warren", normalize: false })
    // First: when each request arrived (src/http/metrics), and with JSON logs its id.
    .use(requestMetricsPlugin)
    .use(requestLogPlugin())
    .use(datePlugin)
    .use(processHeaderPlugin(deps.config.processHeader))
    // ActivityPub requests (inbox POSTs; actor GETs asking for activity JSON) go to Fedify before anything
    // else but IP blocks; the rest, and whatever Fedify does not know, carry on (src/federation/route.ts).
    .onRequest(answeredEarly((request) => federationResponse(deps, request, () => ipBlockRefusal(deps, request, () => app.server))))
    .use(ipBlocksPlugin(deps, () => app.server))
    .use(corsPlugin)
    .use(rateLimitsPlugin(deps, () => app.server))
    .use(errorsPlugin)
    .use(paramsPlugin(deps.config))
    .use(cachePlugin)
    .use(openapiPlugin(documentation))
    .use(oauthRoutes(deps))
    .use(appsRoutes(deps))
    .use(accountsRoutes(deps))
    .use(relationshipRoutes(deps))
    .use(statusesRoutes(deps))
    .use(pollRoutes(deps))
    .use(scheduledStatusRoutes(deps))
    .use(timelineRoutes(deps))
    .use(listRoutes(deps))
    .use(collectionsRoutes(deps))
    .use(conversationRoutes(deps))
    .use(tagRoutes(deps))
    .use(featuredTagRoutes(deps))
    .use(endorsementRoutes(deps))
    .use(accountExtraRoutes(deps))
    .use(domainBlockRoutes(deps))
    .use(threadMuteRoutes(deps))
    .use(markerRoutes(deps))
    .use(notificationRequestRoutes(deps))
    .use(trendRoutes(deps))
    .use(announcementRoutes(deps))
    .use(customEmojiRoutes(deps))
    .use(adminTrendRoutes(deps))
    .use(notificationPolicyRoutes(deps))
    .use(notificationV1Routes(deps))
    .use(streamingRoutes(deps))
    .use(instanceV1Routes(deps))
    .use(instanceV2Routes(deps))
    .use(notificationV2Routes(deps))
    .use(mediaV1Routes(deps))
    .use(mediaV2Routes(deps))
    .use(searchRoutes(deps))
    .use(filterV1Routes(deps))
    .use(filterV2Routes(deps))
    .use(suggestionV1Routes(deps))
    .use(suggestionV2Routes(deps))
    .use(pushRoutes(deps))
    .use(annualReportRoutes(deps))
    .use(reportRoutes(deps))
    .use(adminReportRoutes(deps))
    .use(adminAccountV1Routes(deps))
    .use(adminAccountV2Routes(deps))
    .use(adminDomainBlockRoutes(deps))
    .use(adminCanonicalEmailBlockRoutes(deps))
    .use(adminDomainAllowRoutes(deps))
    .use(adminIpBlockRoutes(deps))
    .use(adminMeasureRoutes(deps))
    .use(wellKnownRoutes(deps))
    .use(instanceWebRoutes(deps))
    .use(publicPageRoutes(deps))
    .use(authWebRoutes(deps))
    .use(adminPages(deps))
    .use(emailRoutes(deps))
    .use(metricsRoutes(deps))
    .use(mediaFileRoutes(deps));
  indexRouteSchemas(app, deps.config);
  documentCommonErrors(app);
  documentWebSockets(app, documentation);
  if (!deps.config.checkResponses) skipResponseChecks(app);
  return app;
}

/**
 * Response schemas document every answer (OpenAPI) and are checked under tests and in development. In
 * production the presenters, typed by those schemas, are trusted: the check cost ~15% of a simple read.
 */
function skipResponseChecks(app: AnyElysia): void {
  for (const route of app.routes as { hooks?: { response?: unknown } }[]) {
    const response = route.hooks?.response;
    if (!response || typeof response !== "object") continue;
    const schemas = Kind in response ? [response] : Object.values(response as Record<string, unknown>);
    for (const schema of schemas) if (schema && typeof schema === "object") (schema as { noValidate?: boolean }).noValidate = true;
  }
}

export type App = ReturnType<typeof buildApp>;
