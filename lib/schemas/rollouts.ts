/**
 * URL state of the rollouts page (`/rollouts`). As on the other dashboard pages, a malformed
 * parameter falls back to its default.
 */
import { z } from "zod";
import {
  customRangeFields,
  optionalText,
  param,
  RANGE_PRESETS,
  roleParam,
  tenantParam,
} from "@/lib/schemas/dashboard";
import { ROUTING_MODES } from "@/lib/schemas/events";

/** Default harmful-drop threshold of the verdict, in percent. */
export const DEFAULT_THRESHOLD_PERCENT = 1;
export const MIN_THRESHOLD_PERCENT = 0.01;
export const MAX_THRESHOLD_PERCENT = 50;

/**
 * `config_version` is stored as '' when an agent sends none; in URLs and on the page that
 * version is written as this token.
 */
export const NO_CONFIG_VERSION_TOKEN = "(none)";

/** `/rollouts`: the window, the tenant and role, the verdict threshold, the config pair. */
export const rolloutsSearchSchema = z.object({
  range: param(z.enum([...RANGE_PRESETS, "custom"])).default("7d"),
  ...customRangeFields,
  tenant: tenantParam,
  role: roleParam,
  /** Harmful-drop threshold of the verdict, in percent (1 = 1%). */
  threshold: param(z.coerce.number().min(MIN_THRESHOLD_PERCENT).max(MAX_THRESHOLD_PERCENT)).default(
    DEFAULT_THRESHOLD_PERCENT,
  ),
  /** Config versions compared before vs after (tokens: the version, or the no-version token). */
  before: optionalText(200),
  after: optionalText(200),
  /**
   * Restricts the before/after comparison to one mode; absent compares all routed traffic
   * (rollouts leave mode `off` out). Links written before it was renamed call it `cmode` (see
   * RENAMED_PARAMETERS).
   */
  compareMode: param(z.enum(ROUTING_MODES).optional()),
});
export type RolloutsSearch = z.infer<typeof rolloutsSearchSchema>;
