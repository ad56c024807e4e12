/**
 * URL state of the tools page (`/tools`). As on the other dashboard pages, a malformed parameter
 * falls back to its default instead of failing the page.
 */
import { z } from "zod";
import {
  instant,
  mode,
  optionalText,
  param,
  RANGE_PRESETS,
  SORT_DIRECTIONS,
} from "@/lib/schemas/dashboard";

/** Columns the tools table can be sorted by. */
export const TOOL_SORT_KEYS = [
  "tool",
  "offered",
  "selected",
  "dropped",
  "called",
  "harmfulDrops",
  "droppedTokens",
] as const;
export type ToolSortKey = (typeof TOOL_SORT_KEYS)[number];

/** `/tools`: per-tool counts for a window, tenant, role and mode; `tool` opens its examples. */
export const toolsSearchSchema = z.object({
  range: param(z.enum([...RANGE_PRESETS, "custom"]).catch("24h")).default("24h"),
  from: param(instant.optional().catch(undefined)),
  to: param(instant.optional().catch(undefined)),
  tenant: optionalText(100),
  role: optionalText(200),
  mode,
  sort: param(z.enum(TOOL_SORT_KEYS).catch("harmfulDrops")).default("harmfulDrops"),
  dir: param(z.enum(SORT_DIRECTIONS).optional().catch(undefined)),
  /** The tool whose harmful-drop examples are listed. */
  tool: optionalText(200),
});
export type ToolsSearch = z.infer<typeof toolsSearchSchema>;
