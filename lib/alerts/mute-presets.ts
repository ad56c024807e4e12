/**
 * Muting a rule until a time: the presets the alerts page offers and the words for a rule's
 * mute. Pure, so the page, the form and the server action agree on the same instants.
 */

export const MUTE_PRESETS = [
  { key: "1h", label: "1 hour", ms: 3_600_000 },
  { key: "4h", label: "4 hours", ms: 4 * 3_600_000 },
  { key: "24h", label: "24 hours", ms: 24 * 3_600_000 },
  { key: "7d", label: "7 days", ms: 7 * 24 * 3_600_000 },
] as const;

export type MutePresetKey = (typeof MUTE_PRESETS)[number]["key"];

export const MUTE_PRESET_KEYS = MUTE_PRESETS.map((preset) => preset.key) as [
  MutePresetKey,
  ...MutePresetKey[],
];

/** The instant a preset mutes until, counted from `now`. */
export function muteUntilFor(key: MutePresetKey, now: Date): Date {
  const preset = MUTE_PRESETS.find((candidate) => candidate.key === key) ?? MUTE_PRESETS[0];
  return new Date(now.getTime() + preset.ms);
}

/** True while `mutedUntil` is in the future. */
export function isMuted(mutedUntil: Date | string | null, now: Date): boolean {
  if (mutedUntil === null) return false;
  const until = typeof mutedUntil === "string" ? Date.parse(mutedUntil) : mutedUntil.getTime();
  return until > now.getTime();
}
