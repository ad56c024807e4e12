/** A tenant id, as `npm run keys -- create <tenant>` accepts it. */
import { z } from "zod";
import { LIMITS } from "./events";

export const tenantIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.tenantId, `at most ${LIMITS.tenantId} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only");
