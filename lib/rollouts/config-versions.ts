/**
 * Configuration versions and modes seen in a window: when each was first seen, which two
 * versions a before/after comparison uses, and the change markers drawn on the time series.
 */

import { floorToBucket, type Granularity } from "@/lib/dashboard/time-range";
import { NO_CONFIG_VERSION_TOKEN } from "@/lib/schemas/rollouts";
import { compareCodeUnits } from "@/lib/text-order";
import type { CohortCell } from "./types";

export interface ConfigVersionSummary {
  configVersion: string;
  /** How the version appears in URLs (the empty version has a token). */
  token: string;
  /** How the version is shown. */
  label: string;
  /** ISO instant of the first minute bucket seen in the window. */
  firstSeen: string;
  /** ISO start of the last bucket seen in the window. */
  lastBucket: string;
  decisions: number;
  modes: string[];
}

export function configVersionToken(configVersion: string): string {
  return configVersion === "" ? NO_CONFIG_VERSION_TOKEN : configVersion;
}

export function configVersionFromToken(token: string): string {
  return token === NO_CONFIG_VERSION_TOKEN ? "" : token;
}

/** One line per config version, oldest first seen first (ties by version). */
export function listConfigVersions(cells: readonly CohortCell[]): ConfigVersionSummary[] {
  const byVersion = new Map<
    string,
    { firstSeen: number; lastBucket: number; decisions: number; modes: Set<string> }
  >();
  for (const cell of cells) {
    const entry = byVersion.get(cell.configVersion) ?? {
      firstSeen: Number.POSITIVE_INFINITY,
      lastBucket: Number.NEGATIVE_INFINITY,
      decisions: 0,
      modes: new Set<string>(),
    };
    entry.firstSeen = Math.min(entry.firstSeen, cell.firstSeen.getTime());
    entry.lastBucket = Math.max(entry.lastBucket, cell.lastBucket.getTime());
    entry.decisions += cell.decisions;
    entry.modes.add(cell.mode);
    byVersion.set(cell.configVersion, entry);
  }
  return [...byVersion.entries()]
    .map(([configVersion, entry]) => ({
      configVersion,
      token: configVersionToken(configVersion),
      label: configVersion === "" ? "(no version)" : configVersion,
      firstSeen: new Date(entry.firstSeen).toISOString(),
      lastBucket: new Date(entry.lastBucket).toISOString(),
      decisions: entry.decisions,
      modes: [...entry.modes].sort(compareCodeUnits),
    }))
    .sort(
      (a, b) =>
        compareCodeUnits(a.firstSeen, b.firstSeen) ||
        compareCodeUnits(a.configVersion, b.configVersion),
    );
}

export interface ConfigPair {
  before: ConfigVersionSummary;
  after: ConfigVersionSummary;
  /** True when the pair came from the URL rather than the default. */
  chosen: boolean;
}

/**
 * The two versions to compare. Both from the URL when they exist in the window and differ;
 * with only one of them valid, its neighbour in order of appearance completes the pair;
 * otherwise the last two to appear (the most recent change). Null with fewer than two versions.
 */
export function chooseConfigPair(
  versions: readonly ConfigVersionSummary[],
  requested: { before?: string | undefined; after?: string | undefined },
): ConfigPair | null {
  if (versions.length < 2) return null;
  const indexOf = (token: string | undefined) =>
    token === undefined ? -1 : versions.findIndex((version) => version.token === token);
  const at = (index: number) => versions[index] as ConfigVersionSummary;
  let before = indexOf(requested.before);
  let after = indexOf(requested.after);
  if (before >= 0 && before === after) after = -1;
  if (before < 0 && after < 0) {
    return { before: at(versions.length - 2), after: at(versions.length - 1), chosen: false };
  }
  if (before < 0) before = after > 0 ? after - 1 : after + 1;
  if (after < 0) after = before < versions.length - 1 ? before + 1 : before - 1;
  return { before: at(before), after: at(after), chosen: true };
}

export interface ChangeMarker {
  /** Start of the chart bucket the change falls in (ms since epoch): where the line is drawn. */
  t: number;
  /** ISO instant of the change (first minute seen). */
  at: string;
  kind: "mode" | "config";
  /** The mode, or the config version's label. */
  value: string;
}

/**
 * A marker wherever a mode or config version first appears in the window after traffic of
 * another one had already been seen (the earliest value of each is the starting state, not a
 * change). Sorted by time, modes before config versions at the same time.
 */
export function listChangeMarkers(
  cells: readonly CohortCell[],
  granularity: Granularity,
): ChangeMarker[] {
  const firstSeenBy = (key: (cell: CohortCell) => string) => {
    const first = new Map<string, number>();
    for (const cell of cells) {
      const value = key(cell);
      first.set(
        value,
        Math.min(first.get(value) ?? Number.POSITIVE_INFINITY, cell.firstSeen.getTime()),
      );
    }
    return first;
  };
  const markers: ChangeMarker[] = [];
  const collect = (kind: ChangeMarker["kind"], first: Map<string, number>) => {
    const start = Math.min(...first.values());
    for (const [value, at] of first) {
      if (at <= start) continue;
      markers.push({
        t: floorToBucket(at, granularity),
        at: new Date(at).toISOString(),
        kind,
        value: kind === "config" && value === "" ? "(no version)" : value,
      });
    }
  };
  collect(
    "mode",
    firstSeenBy((cell) => cell.mode),
  );
  collect(
    "config",
    firstSeenBy((cell) => cell.configVersion),
  );
  return markers.sort(
    (a, b) =>
      compareCodeUnits(a.at, b.at) ||
      (a.kind === b.kind ? compareCodeUnits(a.value, b.value) : a.kind === "mode" ? -1 : 1),
  );
}
