/**
 * A backtest as the new-backtest form and the API accept it (SPEC §10). Every message names
 * the field and the rule it broke; the configs are checked against the routing config JSON
 * schema (`candidate.roleTools.support: …`).
 */
import { z } from "zod";
import { MAX_BACKTEST_WINDOW_DAYS, MAX_BACKTEST_WINDOW_MS } from "@/lib/backtest/types";
import { LIMITS } from "./events";
import {
  DEFAULT_THRESHOLD_PERCENT,
  MAX_THRESHOLD_PERCENT,
  MIN_THRESHOLD_PERCENT,
} from "./rollouts";
import { routingConfigJsonSchema } from "./routing-config";
import { tenantIdSchema } from "./tenant";

/** Most roles one backtest names. */
export const MAX_BACKTEST_ROLES = 50;

const instant = (field: string) =>
  z.coerce
    .date({ error: `${field} must be a date and time (ISO 8601)` })
    .refine((date) => !Number.isNaN(date.getTime()), `${field} must be a date and time (ISO 8601)`);

export const backtestInputSchema = z
  .object({
    tenantId: tenantIdSchema,
    roles: z
      .array(
        z
          .string()
          .trim()
          .min(1, "a role must not be empty")
          .max(LIMITS.label, `a role has at most ${LIMITS.label} characters`),
        { error: "roles must be a list of role names" },
      )
      .max(MAX_BACKTEST_ROLES, `at most ${MAX_BACKTEST_ROLES} roles`)
      .default([])
      .transform((roles) => [...new Set(roles)].sort()),
    from: instant("from"),
    to: instant("to"),
    candidate: z
      .unknown()
      .pipe(
        z.custom<unknown>((value) => value !== undefined && value !== null, {
          message: "candidate config is required",
        }),
      )
      .pipe(routingConfigJsonSchema),
    baseline: routingConfigJsonSchema
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    thresholdPercent: z.coerce
      .number({ error: "thresholdPercent must be a number" })
      .min(MIN_THRESHOLD_PERCENT, `thresholdPercent must be at least ${MIN_THRESHOLD_PERCENT}`)
      .max(MAX_THRESHOLD_PERCENT, `thresholdPercent must be at most ${MAX_THRESHOLD_PERCENT}`)
      .default(DEFAULT_THRESHOLD_PERCENT),
  })
  .superRefine((input, ctx) => {
    const span = input.to.getTime() - input.from.getTime();
    if (span <= 0) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
    } else if (span > MAX_BACKTEST_WINDOW_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `the window must be at most ${MAX_BACKTEST_WINDOW_DAYS} days`,
      });
    }
  });

export type BacktestInputFields = z.input<typeof backtestInputSchema>;
