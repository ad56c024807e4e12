import { describe, expect, it } from "vitest";
import {
  BREAKDOWN_SORT_DIRECTIONS,
  BREAKDOWN_SORT_KEYS,
  overviewSearchSchema,
  parseSearchParams,
  RUN_SORT_DIRECTIONS,
  RUN_SORT_KEYS,
  runsSearchSchema,
  type SortDirections,
  sortDirectionOf,
} from "./dashboard";
import { TOOL_SORT_DIRECTIONS, TOOL_SORT_KEYS, toolsSearchSchema } from "./tools";

const views = [
  {
    name: "overview breakdown",
    directions: BREAKDOWN_SORT_DIRECTIONS as SortDirections<string>,
    keys: BREAKDOWN_SORT_KEYS as readonly string[],
    schema: overviewSearchSchema,
    text: ["tenant", "role"],
  },
  {
    name: "runs",
    directions: RUN_SORT_DIRECTIONS as SortDirections<string>,
    keys: RUN_SORT_KEYS as readonly string[],
    schema: runsSearchSchema,
    text: ["runId", "tenant"],
  },
  {
    name: "tools",
    directions: TOOL_SORT_DIRECTIONS as SortDirections<string>,
    keys: TOOL_SORT_KEYS as readonly string[],
    schema: toolsSearchSchema,
    text: ["tool"],
  },
];

describe.each(views)("$name sort directions", ({ directions, keys, schema, text }) => {
  it("lists every sortable column once, as the URL schema accepts them", () => {
    expect(keys).toEqual(Object.keys(directions));
    for (const key of keys) expect(parseSearchParams(schema, { sort: key }).sort).toBe(key);
  });

  it("sorts text A→Z and numbers and times largest first unless the URL says otherwise", () => {
    for (const key of keys) {
      const expected = text.includes(key) ? "asc" : "desc";
      expect(sortDirectionOf({ sort: key }, directions), key).toBe(expected);
      const flipped = expected === "asc" ? "desc" : "asc";
      expect(sortDirectionOf({ sort: key, dir: flipped }, directions), key).toBe(flipped);
    }
  });
});
