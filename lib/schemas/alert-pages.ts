/** URL state of the alerts pages. */
import { z } from "zod";
import { param } from "./dashboard";

/** `/alerts`: `?rule=<id>` (the links in alert messages) opens that rule's page. */
export const alertsSearchSchema = z.object({
  rule: param(z.uuid().optional()),
});
