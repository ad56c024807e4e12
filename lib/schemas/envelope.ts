/**
 * The ingest request body's envelope, `{"batch": [...]}` (SPEC §3), as ingest first reads it:
 * the events stay unknown here and are validated one by one against `events.ts`.
 */
import { z } from "zod";

export const envelopeSchema = z.object({ batch: z.array(z.unknown()) });
