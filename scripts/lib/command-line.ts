/**
 * The scripts' command lines, parsed one way: `node:util` `parseArgs`, strict, so an unknown
 * flag, a missing value or a stray argument stops the script (exit code 2) with a sentence
 * that names it, followed by the script's usage.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Prints `message` to stderr and exits with code 2 (a usage error). */
export function failUsage(message: string): never {
  console.error(message);
  process.exit(2);
}

/** `parseArgs`'s message without its hint about `--`, which only confuses here. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\. To specify a positional argument.*$/s, "");
}

/**
 * Parses `argv` (the script's arguments by default) against `options`. Positionals are
 * refused unless `allowPositionals` is set.
 */
export function parseCommandLine<const O extends OptionsConfig>(
  options: O,
  usage: string,
  { allowPositionals = false, argv = process.argv.slice(2) } = {},
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (error) {
    failUsage(`${describeParseError(error)}\n${usage}`);
  }
}

/** `--name N`: a positive whole number, or `fallback` when the flag is absent. */
export function positiveWholeNumber(
  name: string,
  text: string | undefined,
  fallback: number,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value <= 0) {
    failUsage(`--${name} must be a positive whole number (got "${text}")`);
  }
  return value;
}
