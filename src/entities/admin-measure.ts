// Admin::Measure (Mastodon's REST::Admin::MeasureSerializer): the numbers as strings, days at UTC midnight.
import { t, type Static } from "elysia";
import type { Measure } from "../domain/admin/measures.ts";
import { Nullable } from "./nullable.ts";

export const AdminMeasureSchema = t.Object(
  {
    key: t.String(),
    unit: Nullable(t.String()),
    total: t.String(),
    previous_total: t.String(),
    data: t.Array(t.Object({ date: t.String(), value: t.String() })),
  },
  { description: "Mastodon Admin::Measure" },
);
export type AdminMeasure = Static<typeof AdminMeasureSchema>;

export const presentAdminMeasure = (measure: Measure): AdminMeasure => ({
  key: measure.key,
  unit: null,
  total: String(measure.total),
  previous_total: String(measure.previousTotal),
  data: measure.data.map((day) => ({ date: new Date(day.date).toISOString().replace("Z", "+00:00"), value: String(day.value) })),
});
