/**
 * URL state of the tools page (`/tools`). As on the other dashboard pages, a malformed parameter
 * falls back to its default on the page and is refused by its export (see
 * `lib/schemas/dashboard.ts`).
 */
import { z } from "zod";
import {
  direction,
  optionalText,
  param,
  rollupFilterFields,
  sortDirections,
} from "@/lib/schemas/dashboard";
import { LIMITS } from "@/lib/schemas/events";

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
/** The tool name sorts A→Z by default, counts largest first. */
export const TOOL_SORT_DIRECTIONS = sortDirections(TOOL_SORT_KEYS, ["tool"]);

/** `/tools`: per-tool counts for a window, tenant, role and mode; `tool` opens its examples. */
export const toolsSearchSchema = z.object({
  ...rollupFilterFields("24h"),
  sort: param(z.enum(TOOL_SORT_KEYS)).default("harmfulDrops"),
  dir: direction,
  /** The tool whose harmful-drop examples are listed. */
  tool: optionalText(LIMITS.toolName),
});
export type ToolsSearch = z.infer<typeof toolsSearchSchema>;
