/**
 * The protobuf reader OTLP exports are decoded with: protobufjs's own, except that a long string
 * it has read before (by its bytes) is answered with the same string instead of a new one.
 *
 * An agent sends its tool definitions — kilobytes of JSON — with every LLM call, and an export
 * holds hundreds of calls of a few agents. Decoded anew, each copy is a string to build and then
 * to collect, and the tool-list memo (`attributes.ts`) hashes each one to find the list it has
 * already read. Answered with the one string, it is neither built nor collected again, and V8
 * keeps a string's hash once computed. The bytes are compared whole (`Buffer.compare`, a
 * `memcmp`); a cheap fingerprint only picks which strings to compare with.
 *
 * A string is kept from its second sighting on, so the long texts that come once (a prompt, a
 * model's answer) are not copied for nothing; what is kept is bounded, and dropped whole when
 * full.
 */
import protobuf from "protobufjs/minimal.js";

/** Strings shorter than this (in bytes) are decoded as protobufjs decodes them. */
const LONG_BYTES = 1024;
/** Bytes of the strings kept; beyond it, everything kept is dropped. */
const KEPT_BYTES = 4 * 1024 * 1024;
/** Fingerprints of strings seen once, remembered until this many. */
const SIGHTINGS = 4096;
/** Strings kept per fingerprint (distinct strings whose sampled bytes agree). */
const PER_FINGERPRINT = 4;

interface Kept {
  bytes: Buffer;
  text: string;
}

/** The length and 16 words spread over the bytes, mixed into 32 bits. */
function fingerprint(buf: Buffer, start: number, end: number): number {
  const length = end - start;
  const step = Math.max(4, Math.floor(length / 16));
  let hash = length;
  for (let at = start; at + 4 <= end; at += step) {
    hash = Math.imul(hash ^ buf.readUInt32LE(at), 0x9e3779b1);
  }
  return (hash ^ buf.readUInt32LE(end - 4)) >>> 0;
}

/** The long strings read so far, by fingerprint. One per process: every export shares it. */
export class LongTexts {
  private readonly kept = new Map<number, Kept[]>();
  private readonly sighted = new Set<number>();
  private keptBytes = 0;

  /** The UTF-8 text of `buf[start, end)`; throws (ERR_ENCODING_INVALID_ENCODED_DATA) if not UTF-8. */
  read(buf: Buffer, start: number, end: number): string {
    const length = end - start;
    const key = fingerprint(buf, start, end);
    const candidates = this.kept.get(key);
    if (candidates !== undefined) {
      for (const candidate of candidates) {
        const same =
          candidate.bytes.length === length &&
          buf.compare(candidate.bytes, 0, length, start, end) === 0;
        if (same) return candidate.text;
      }
    }
    const text = protobuf.util.utf8.readStrict(buf, start, end);
    if (!this.sighted.has(key)) {
      if (this.sighted.size >= SIGHTINGS) this.sighted.clear();
      this.sighted.add(key);
      return text;
    }
    if (this.keptBytes + length > KEPT_BYTES) this.clear();
    const entry = { bytes: Buffer.from(buf.subarray(start, end)), text };
    const list = this.kept.get(key);
    if (list === undefined) this.kept.set(key, [entry]);
    else {
      if (list.length >= PER_FINGERPRINT) this.keptBytes -= (list.shift() as Kept).bytes.length;
      list.push(entry);
    }
    this.keptBytes += length;
    return text;
  }

  clear(): void {
    this.kept.clear();
    this.sighted.clear();
    this.keptBytes = 0;
  }

  /** Strings kept and their bytes (for tests of the bound). */
  get size(): { texts: number; bytes: number } {
    let texts = 0;
    for (const list of this.kept.values()) texts += list.length;
    return { texts, bytes: this.keptBytes };
  }
}

export const longTexts = new LongTexts();

/** A protobufjs reader over `buffer` whose proto3 strings of `LONG_BYTES` or more go through `longTexts`. */
export class TextReader extends protobuf.BufferReader {
  override stringVerify(): string {
    const length = this.size();
    const start = this.pos;
    const end = start + length;
    if (end > this.len)
      throw new RangeError(`index out of range: ${start} + ${length} > ${this.len}`);
    this.pos = end;
    return length >= LONG_BYTES
      ? longTexts.read(this.buf as Buffer, start, end)
      : protobuf.util.utf8.readStrict(this.buf, start, end);
  }
}
