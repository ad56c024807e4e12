/**
 * The configs API (`/api/configs/<tenant>`) and the config pages' inputs: the body of a save,
 * the version a GET asks for, the note. The config itself is checked by
 * `routingConfigJsonSchema` (lib/schemas/routing-config.ts).
 */
import { z } from "zod";
import { tenantIdSchema } from "./tenant";

/** The largest body `PUT /api/configs/<tenant>` reads; a bigger one gets 413. */
export const CONFIG_BODY_MAX_BYTES = 1024 * 1024;

export const CONFIG_NOTE_MAX = 2000;

export const configNoteSchema = z
  .string()
  .trim()
  .max(CONFIG_NOTE_MAX, `must be at most ${CONFIG_NOTE_MAX} characters`)
  .transform((note) => (note === "" ? undefined : note));

/** `PUT /api/configs/<tenant>`: `{"config": {…}, "note": "why"}`. */
export const configSaveBodySchema = z.strictObject(
  {
    config: z.unknown().refine((value) => value !== undefined, "is required: the routing config"),
    note: configNoteSchema.optional(),
  },
  { error: "must be a JSON object with config (the routing config) and an optional note" },
);

export const configVersionParamSchema = z
  .string()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");

/** `GET /api/configs/<tenant>?version=cfg_…` (absent: the current config). */
export const configGetSearchSchema = z.object({
  version: configVersionParamSchema.optional(),
});

/** The tenant segment of `/api/configs/<tenant>` and `/configs/<tenant>`. */
export const configTenantSchema = tenantIdSchema;

/** `/configs/<tenant>?version=cfg_…` (a stored version), `&saved=…&changed=1` after a save. */
export const configPageSearchSchema = z.object({
  version: configVersionParamSchema.optional().catch(undefined),
  saved: configVersionParamSchema.optional().catch(undefined),
  changed: z.enum(["0", "1"]).optional().catch(undefined),
});
