/**
 * The stage trace and warnings of a stored decision, read leniently for display: they were
 * validated at ingest (`events.ts`), but a record that cannot be read is reported by the
 * trace view, never a crashed page — so every field falls back to a neutral value.
 */
import { z } from "zod";

const names = z.array(z.string()).catch([]);

export const storedStageRecordSchema = z.object({
  stage: z.string().catch("(unnamed stage)"),
  action: z.string().catch("unknown"),
  kept: names,
  dropped: names,
  added: names,
  reinstated: names,
  forced_choice: z.string().nullable().catch(null),
  detail: z.string().catch(""),
  degraded: z.boolean().catch(false),
});

export const storedWarningSchema = z.object({
  code: z.string(),
  stage: z.string().optional().catch(undefined),
  detail: z.string().optional().catch(undefined),
});
