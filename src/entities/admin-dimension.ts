// Admin::Dimension and Admin::Cohort (Mastodon's REST::Admin::DimensionSerializer and CohortSerializer).
import { t, type Static } from "elysia";
import type { Dimension } from "../domain/admin/dimensions.ts";
import type { Cohort } from "../domain/admin/retention.ts";

const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

export const AdminDimensionSchema = t.Object(
  {
    key: t.String(),
    data: t.Array(
      t.Object({
        key: t.String(),
        human_key: t.String(),
        value: t.String(),
        unit: t.Optional(t.String()),
        human_value: t.Optional(t.String()),
      }),
    ),
  },
  { description: "Mastodon Admin::Dimension" },
);
export type AdminDimension = Static<typeof AdminDimensionSchema>;

export const presentAdminDimension = (dimension: Dimension): AdminDimension => ({
  key: dimension.key,
  data: dimension.data.map((item) => ({
    key: item.key,
    human_key: item.humanKey,
    value: item.value,
    ...(item.unit !== undefined && { unit: item.unit }),
    ...(item.humanValue !== undefined && { human_value: item.humanValue }),
  })),
});

export const AdminCohortSchema = t.Object(
  {
    period: t.String(),
    frequency: t.Union([t.Literal("day"), t.Literal("month")]),
    data: t.Array(t.Object({ date: t.String(), rate: t.Number(), value: t.String() })),
  },
  { description: "Mastodon Admin::Cohort" },
);
export type AdminCohort = Static<typeof AdminCohortSchema>;

export const presentAdminCohort = (cohort: Cohort): AdminCohort => ({
  period: iso(cohort.period),
  frequency: cohort.frequency,
  data: cohort.data.map((d) => ({ date: iso(d.date), rate: d.rate, value: String(d.value) })),
});
