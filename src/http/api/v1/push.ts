// POST/GET/PUT/DELETE /api/v1/push/subscription (API.md §7.8; docs/push.md): the Web Push subscription of
// the caller's access token (`push` scope, a user token). POST replaces it, PUT replaces its data only.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { appVapidKey } from "../../../domain/oauth/apps.ts";
import {
  changeSubscriptionData,
  currentSubscription,
  PUSH_ALERT_TYPES,
  subscribe,
  unsubscribe,
  type PushDataInput,
} from "../../../domain/push/subscriptions.ts";
import { presentPushSubscription, WebPushSubscriptionSchema } from "../../../entities/push-subscription.ts";
import { authPlugin, bearerToken } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody, Flag, toBool, type FlagValue } from "../../schemas.ts";
import type { PushSubscriptionRecord } from "../../../model/notifications.ts";

const SCOPES = ["push"];
const tags = ["push"];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

const AlertsParams = t.Object(
  Object.fromEntries(PUSH_ALERT_TYPES.map((type) => [type, t.Optional(Flag({ description: `Push ${type} notifications` }))])),
  { description: "data[alerts][<notification type>]: true to push that type; absent or false: not pushed" },
);

const DataParams = t.Optional(
  t.Object({
    alerts: t.Optional(AlertsParams),
    policy: t.Optional(t.String({ description: "all (default), followed, follower or none: whose notifications are pushed" })),
  }),
);

type RawData = { alerts?: Record<string, FlagValue | undefined>; policy?: string } | undefined;

function dataOf(raw: RawData): PushDataInput {
  const alerts: PushDataInput["alerts"] = {};
  for (const type of PUSH_ALERT_TYPES) {
    const value = raw?.alerts?.[type];
    if (value !== undefined) alerts[type] = toBool(value);
  }
  return { alerts, policy: raw?.policy };
}

export const pushRoutes = (deps: Deps) => {
  const present = (record: PushSubscriptionRecord) => presentPushSubscription(record, appVapidKey(deps.store));
  return new Elysia({ name: "push-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/push/subscription",
      async ({ viewer, body, request }) => {
        const subscription = body?.subscription;
        if (!subscription) throw new BadRequest("param is missing or the value is empty: subscription");
        const keys = { endpoint: subscription.endpoint, p256dh: subscription.keys?.p256dh, auth: subscription.keys?.auth, standard: toBool(subscription.standard) };
        return present(await subscribe(deps, viewer, bearerToken(request)!, keys, dataOf(body.data)));
      },
      {
        auth: SCOPES,
        body: t.Object({
          subscription: t.Optional(
            t.Object({
              endpoint: t.Optional(t.String({ description: "The push service URL (https)" })),
              keys: t.Optional(
                t.Object({
                  p256dh: t.Optional(t.String({ description: "The device's P-256 public key, base64url (65 bytes)" })),
                  auth: t.Optional(t.String({ description: "The device's auth secret, base64url (16 bytes)" })),
                }),
              ),
              standard: t.Optional(Flag({ description: "true: RFC 8291 (aes128gcm); false or absent: the legacy aesgcm draft" })),
            }),
          ),
          data: DataParams,
        }),
        response: { 200: WebPushSubscriptionSchema, ...errors },
        detail: { summary: "Subscribe the access token to Web Push (replaces its subscription)", tags },
      },
    )
    .get("/api/v1/push/subscription", ({ viewer }) => present(currentSubscription(deps, viewer)), {
      auth: SCOPES,
      response: { 200: WebPushSubscriptionSchema, ...errors },
      detail: { summary: "The access token's Web Push subscription (404 when it has none)", tags },
    })
    .put("/api/v1/push/subscription", async ({ viewer, body }) => present(await changeSubscriptionData(deps, viewer, dataOf(body?.data))), {
      auth: SCOPES,
      body: t.Object({ data: DataParams }),
      response: { 200: WebPushSubscriptionSchema, ...errors },
      detail: { summary: "Change which notifications are pushed (alerts and policy, replaced wholesale)", tags },
    })
    .delete(
      "/api/v1/push/subscription",
      async ({ viewer }) => {
        await unsubscribe(deps, viewer);
        return {};
      },
      {
        auth: SCOPES,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Remove the access token's Web Push subscription", tags },
      },
    );
};
