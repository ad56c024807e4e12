/**
 * Reading and checking an ingest request before any event is looked at: content type,
 * encoding, size and the `{batch: [...]}` envelope (SPEC §3). Each failure carries the HTTP
 * status and a message that says what to fix.
 */
import { isAscii } from "node:buffer";
import { createGunzip } from "node:zlib";
import { envelopeSchema } from "@/lib/schemas/envelope";
import { LIMITS } from "@/lib/schemas/events";
import { nextTurn } from "./cpu-slice";

export class RequestRejected extends Error {
  constructor(
    readonly status: 400 | 401 | 413 | 415 | 429 | 503,
    message: string,
    /** Seconds for the Retry-After header of a 503. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "RequestRejected";
  }
}

/** Retry-After of a request refused because too many bytes are being parsed at once. */
const PARSE_BUSY_RETRY_SECONDS = 1;

/** A request refused (503) because too many bytes are being parsed at once (`ParseBudget`). */
export class ParseBusy extends RequestRejected {
  constructor(message: string) {
    super(
      503,
      `${message}; nothing was stored. Retry after ${PARSE_BUSY_RETRY_SECONDS} s.`,
      PARSE_BUSY_RETRY_SECONDS,
    );
  }
}

const mibText = (bytes: number) => {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? String(mib) : mib.toFixed(1);
};

/**
 * Bytes of request bodies (as received, and decompressed) held by the requests being read,
 * parsed and checked in this process. Each request takes its bytes as they arrive and gives
 * them back when it is answered; a request that would go past a limit is refused with 503
 * and `Retry-After`, so a burst of large or highly compressed bodies cannot hold the CPU and
 * memory that every other request needs. Two limits, checked in this order:
 *
 * 1. One tenant's requests (the API key's tenant) hold at most half of `limitBytes`, so one
 *    tenant flooding large bodies always leaves the other half to everyone else: another
 *    tenant's request is never refused on its account (a full 5 MiB body, inflated, fits in
 *    half of the default 20 MiB). Two tenants flooding at once can still fill the process.
 * 2. All requests together hold at most `limitBytes`.
 */
export class ParseBudget {
  private used = 0;
  /** Bytes held per tenant; a tenant holding none has no entry. */
  private readonly tenants = new Map<string, number>();
  readonly tenantLimitBytes: number;

  constructor(readonly limitBytes: number) {
    this.tenantLimitBytes = Math.floor(limitBytes / 2);
  }

  get inUse(): number {
    return this.used;
  }

  /** Bytes held by one tenant's requests. */
  inUseBy(tenant: string): number {
    return this.tenants.get(tenant) ?? 0;
  }

  /** A lease for one request of `tenant`: `take` as bytes arrive, `release` once when answered. */
  lease(tenant: string): ParseLease {
    let held = 0;
    let released = false;
    const busy = (message: string) => new ParseBusy(message);
    return {
      take: (bytes: number) => {
        // A chunk a stream delivers after its request was answered must not be counted again.
        if (released) throw busy("This request has already been answered");
        const tenantBytes = this.inUseBy(tenant);
        if (tenantBytes + bytes > this.tenantLimitBytes) {
          throw busy(
            `This API key's tenant already has ${mibText(tenantBytes)} MiB of ingest bodies being read; a tenant may hold at most ${mibText(this.tenantLimitBytes)} MiB at once (half of the server's ${mibText(this.limitBytes)} MiB)`,
          );
        }
        if (this.used + bytes > this.limitBytes) {
          throw busy(
            `The server is busy reading other ingest requests (more than ${mibText(this.limitBytes)} MiB at once)`,
          );
        }
        this.used += bytes;
        held += bytes;
        this.tenants.set(tenant, tenantBytes + bytes);
      },
      release: () => {
        released = true;
        if (held === 0) return;
        this.used -= held;
        const left = this.inUseBy(tenant) - held;
        if (left > 0) this.tenants.set(tenant, left);
        else this.tenants.delete(tenant);
        held = 0;
      },
    };
  }
}

export interface ParseLease {
  take(bytes: number): void;
  release(): void;
}

const MAX_MIB = LIMITS.bodyBytes / (1024 * 1024);

/** The key of an `Authorization: Bearer <key>` header, or null. */
export function bearerTokenOf(header: string | null): string | null {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
}

export function bearerToken(header: string | null): string {
  const token = bearerTokenOf(header);
  if (!token) {
    throw new RequestRejected(
      401,
      "Missing API key: send `Authorization: Bearer <key>` (create one with `npm run keys -- create <tenant>`).",
    );
  }
  return token;
}

/** The media type of a Content-Type header, lower-cased, without its parameters. */
export const mediaTypeOf = (header: string | null): string | undefined =>
  header?.split(";")[0]?.trim().toLowerCase();

export function checkContentType(header: string | null): void {
  if (mediaTypeOf(header) !== "application/json") {
    throw new RequestRejected(
      415,
      `Content-Type must be application/json (got ${header ? `"${header}"` : "none"}).`,
    );
  }
}

/** `readBodyBytes` as UTF-8 text. */
export async function readBody(
  request: Request,
  lease: ParseLease,
  options: BodyOptions = {},
): Promise<string> {
  return utf8Text(await readBodyBytes(request, lease, options));
}

/**
 * Bytes as UTF-8 text, with U+FFFD for invalid sequences. Bytes that are all ASCII (nearly
 * every batch: tool names, ids and stage names are) are the same text read as Latin-1, which
 * is a plain copy; Node 20's UTF-8 decoder takes about 30 times as long on a 1.2 MB batch (5.8
 * against 0.2 ms), and JSON.parse reads its string more slowly too (docs/PERFORMANCE.md).
 */
export function utf8Text(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isAscii(buffer) ? latin1Text(buffer) : buffer.toString("utf8");
}

/** Bodies longer than this, and not longer than `EXTERNAL_STRING_BYTES`, are read as slices. */
const SLICED_FROM_BYTES = 384 * 1024;
/** Node makes a Latin-1 text longer than this an external string (`EXTERN_APEX`). */
const EXTERNAL_STRING_BYTES = 0xfbee9;

/** Where a body of that middle size is copied to be read as an external string; made once. */
let roomy: Buffer | undefined;

/**
 * Bytes read as Latin-1. Node 20 copies a text of 128 kB to 1 MB into a large-object heap
 * string at 4–6 ms per MB, 25 times the cost of a shorter or a longer one (longer ones become
 * external strings: a plain copy outside the heap). A body of 384 kB to 1 MB (a batch of 500
 * events with outcomes is about 700 kB) is therefore copied into a buffer just over 1 MB, kept
 * for the purpose, read as an external string, and answered as the slice of it that holds the
 * body: V8 makes that slice a view, not a copy. The bytes past the body are never read.
 *
 * Reading and parsing a batch of 500 events with outcomes (0.68 MB) took 2.2–3.5 against
 * 4.0–4.2 ms, one of 750 (1.02 MB) 3.3–5.7 against 6.0–6.7 ms; at 250 events (0.34 MB) the
 * two were even, and at 150 (0.20 MB) the slice was slower, 2.8–3.3 against 1.4–1.9 ms — the
 * external string is a 1 MB allocation whatever the body's size (`npm run bench:body-text`,
 * docs/PERFORMANCE.md).
 */
function latin1Text(buffer: Buffer): string {
  const length = buffer.length;
  if (length <= SLICED_FROM_BYTES || length > EXTERNAL_STRING_BYTES) {
    return buffer.toString("latin1");
  }
  roomy ??= Buffer.allocUnsafeSlow(EXTERNAL_STRING_BYTES + 1);
  buffer.copy(roomy);
  return roomy.toString("latin1").slice(0, length);
}

export interface BodyOptions {
  /**
   * The body is a `{"batch": [...]}` envelope: a gzip body whose first `EARLY_COUNT_BYTES`
   * inflated already hold more than `LIMITS.eventsPerBatch` items is refused (413) there,
   * without inflating the rest.
   */
  readonly batchEnvelope?: boolean;
}

/**
 * Reads the body, gunzipping it when Content-Encoding says gzip, never past the size limit;
 * every byte read or inflated is taken from `lease` as it arrives.
 */
export async function readBodyBytes(
  request: Request,
  lease: ParseLease,
  { batchEnvelope = false }: BodyOptions = {},
): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > LIMITS.bodyBytes) {
    throw new RequestRejected(
      413,
      `Request body is larger than ${MAX_MIB} MiB; send smaller batches.`,
    );
  }
  const encoding = request.headers.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "gzip" && encoding !== "identity") {
    throw new RequestRejected(
      415,
      `Content-Encoding must be gzip or identity (got "${encoding}").`,
    );
  }
  const raw = await readLimited(request.body, LIMITS.bodyBytes, "Request body", lease);
  if (encoding !== "gzip") return raw;
  return gunzipLimited(raw, LIMITS.bodyBytes, lease, batchEnvelope ? refuseLongBatch : undefined);
}

/**
 * Inflated bytes after which a gzip envelope's `batch` items are counted, once. A gzip body of
 * 5 MiB of `{}` items is 5 kB on the wire; inflating all of it before the count refused it took
 * tens of milliseconds of a core per request, 24 requests in flight most of two cores. Its first
 * 256 KiB already hold some 87,000 items, while a valid batch of 1,000 decisions needs more than
 * 256 bytes for each — so the count there refuses the one and never the other, and costs about
 * a tenth of a millisecond.
 */
export const EARLY_COUNT_BYTES = 256 * 1024;

/** The refusal of an envelope whose inflated start already holds too many items, or null. */
function refuseLongBatch(start: Buffer): RequestRejected | null {
  // Items counted in a prefix are items of the whole text; a string cut at the end only stops
  // the count early.
  const items = countBatchItems(utf8Text(start), LIMITS.eventsPerBatch);
  return items > LIMITS.eventsPerBatch ? tooManyEvents(`more than ${LIMITS.eventsPerBatch}`) : null;
}

async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  what: string,
  lease: ParseLease,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new RequestRejected(
        413,
        `${what} is larger than ${MAX_MIB} MiB; send smaller batches.`,
      );
    }
    try {
      lease.take(value.byteLength);
    } catch (error) {
      await reader.cancel();
      throw error;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/**
 * Bytes inflated per step. The inflating runs on libuv's thread pool, but each step's output
 * is handed to this thread in a callback; 64 KiB steps instead of zlib's default 16 KiB cut
 * those callbacks, which 24 bodies inflating at once turned into a tenth of a second of the
 * event loop, by four.
 */
const GUNZIP_CHUNK_BYTES = 64 * 1024;

/**
 * The inflated size a gzip body declares in its trailer (ISIZE, the last 4 bytes: the size of
 * the last member modulo 2^32), or 0 when the body is too short to have one. A hint, never
 * trusted: a body may lie, hold several members or have bytes after its end, so the size is
 * only reserved (at most `limit`) and the real bytes are still counted as they are inflated.
 */
export function declaredGunzipSize(compressed: Buffer, limit: number): number {
  if (compressed.length < 18) return 0;
  return Math.min(compressed.readUInt32LE(compressed.length - 4), limit);
}

/**
 * Inflates `compressed`, never past `limit`. The size the body declares is taken from `lease`
 * before anything is inflated, so a request that will not fit is refused (503) at once
 * instead of after inflating megabytes it then throws away; bytes inflated beyond the
 * declared size are taken as they arrive. `refuseStart`, when given, sees the first
 * `EARLY_COUNT_BYTES` inflated, once, and may refuse the body there.
 */
function gunzipLimited(
  compressed: Buffer,
  limit: number,
  lease: ParseLease,
  refuseStart?: (start: Buffer) => RequestRejected | null,
): Promise<Buffer> {
  const reserved = declaredGunzipSize(compressed, limit);
  lease.take(reserved);
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
    const chunks: Buffer[] = [];
    let size = 0;
    let startChecked = false;
    gunzip.on("data", (chunk: Buffer) => {
      const before = size;
      size += chunk.length;
      if (refuseStart && !startChecked && size >= EARLY_COUNT_BYTES) {
        startChecked = true;
        const refusal = refuseStart(Buffer.concat([...chunks, chunk], size));
        if (refusal) {
          gunzip.destroy();
          reject(refusal);
          return;
        }
      }
      if (size > limit) {
        gunzip.destroy();
        reject(
          new RequestRejected(
            413,
            `Decompressed body is larger than ${MAX_MIB} MiB; send smaller batches.`,
          ),
        );
        return;
      }
      const beyondReserved = size - Math.max(before, reserved);
      if (beyondReserved > 0) {
        try {
          lease.take(beyondReserved);
        } catch (error) {
          gunzip.destroy();
          reject(error);
          return;
        }
      }
      chunks.push(chunk);
    });
    gunzip.on("end", () => resolve(Buffer.concat(chunks, size)));
    gunzip.on("error", () =>
      reject(new RequestRejected(400, "Body is marked gzip but is not valid gzip data.")),
    );
    gunzip.end(compressed);
  });
}

const QUOTE = 34; // "
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const isJsonSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;

/**
 * Where one `batch` array sits in the text, as the scan saw it: the index of its `[`, of
 * its `]` (-1 while unclosed), and of each comma between its items.
 */
interface BatchArraySpan {
  open: number;
  close: number;
  commas: number[];
}

interface BatchScan {
  /** Items in the largest `batch` array, at most `limit + 1`. */
  largest: number;
  /** Every depth-2 `batch` array met, when commas were recorded; else empty. */
  arrays: BatchArraySpan[];
  /** False when the scan stopped early: the limit was passed or a string never closed. */
  complete: boolean;
}

/**
 * The one scanner over a `{"batch": [...]}` text, without parsing it: counts the items of
 * each `batch` array at depth 2 and, when `record` is set, notes where each such array and
 * each comma between its items is. Malformed text is left to JSON.parse to report.
 */
function scanBatch(text: string, limit: number, record: boolean): BatchScan {
  let depth = 0;
  let key: string | null = null;
  let expectKey = false;
  let counting = false;
  let items = 0;
  let itemOpen = false;
  let largest = 0;
  const arrays: BatchArraySpan[] = [];
  let span: BatchArraySpan | null = null;
  let complete = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isJsonSpace(code)) continue;
    if (counting && depth === 2 && !itemOpen && code !== CLOSE_BRACKET && code !== COMMA) {
      itemOpen = true;
      items += 1;
      if (items > limit) return { largest: items, arrays, complete: false };
    }
    if (code === QUOTE) {
      // Strings are most of a batch: jump to the closing quote with the native indexOf.
      const start = i;
      i = closingQuote(text, i + 1);
      if (i < 0) {
        complete = false;
        break;
      }
      if (depth === 1 && expectKey) {
        const raw = text.slice(start, i + 1);
        // An escaped key ("b\u0061tch") is decoded the way JSON.parse will decode it.
        key = raw.includes("\\") ? safeJsonString(raw) : raw.slice(1, -1);
      }
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth === 1) expectKey = code === OPEN_BRACE;
      if (depth === 2 && code === OPEN_BRACKET && key === "batch") {
        counting = true;
        items = 0;
        itemOpen = false;
        if (record) {
          span = { open: i, close: -1, commas: [] };
          arrays.push(span);
        }
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (depth === 2 && counting) {
        counting = false;
        largest = Math.max(largest, items);
        if (span) span.close = i;
        span = null;
      }
      depth -= 1;
    } else if (code === COMMA) {
      if (depth === 1) expectKey = true;
      if (depth === 2) {
        itemOpen = false;
        if (span) span.commas.push(i);
      }
    } else if (code === COLON && depth === 1) {
      expectKey = false;
    }
  }
  return { largest: Math.max(largest, counting ? items : 0), arrays, complete };
}

/**
 * The number of items in the largest `batch` array of a `{"batch": [...]}` text, counted
 * without parsing them, and at most `limit + 1` (it stops there). A 5 MiB body of `{}` items
 * is 1.7 million objects to JSON.parse — most of a second of CPU — before the count could be
 * checked; this scan costs a few milliseconds. Malformed text is left to JSON.parse to report.
 */
export function countBatchItems(text: string, limit: number): number {
  return scanBatch(text, limit, false).largest;
}

/** The index of the quote that closes a string whose text starts at `from`, or -1. */
export function closingQuote(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at > 0) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

function safeJsonString(raw: string): string | null {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

const tooManyEvents = (count: number | string) =>
  new RequestRejected(
    413,
    `batch has ${count} events; at most ${LIMITS.eventsPerBatch} per request.`,
  );

/**
 * Bodies whose `batch` array is longer than this many characters have its items parsed in
 * slices (below); shorter ones, such as the 500-decision batches of about 1.3 MB a client
 * usually sends, keep one `JSON.parse`, the fastest way to read them.
 */
export const SLICED_PARSE_ABOVE_CHARS = 2 * 1024 * 1024;
/** The most text of `batch` items parsed in one synchronous step (a single item may be longer). */
export const PARSE_SLICE_CHARS = 256 * 1024;

/**
 * Exactly what `JSON.parse(text)` returns or throws, computed for a `{"batch": [...]}` text
 * in steps of about `sliceChars` of the batch's items, giving the event loop a turn between
 * steps: `JSON.parse` of a 4 MiB body is 35–75 ms in one step, during which no other request
 * is answered. The items are cut at the commas `scanBatch` saw between them; each run of
 * items is parsed as `[` + run + `]`, and the rest of the text with `[]` in place of the
 * batch. When the text is valid, those pieces are valid and their values are the values
 * `JSON.parse` would give. Anything else (a piece that does not parse, an empty piece, more
 * than one `batch` array, a `batch` key that is not that array) falls back to `JSON.parse`
 * of the whole text, so a malformed body gets the same error, message and all.
 */
export async function parseJsonInSlices(
  text: string,
  sliceChars: number = PARSE_SLICE_CHARS,
  scan: BatchScan = scanBatch(text, Number.MAX_SAFE_INTEGER, true),
  turn: () => Promise<void> = nextTurn,
): Promise<unknown> {
  const sliced = await parseBatchSlices(text, sliceChars, scan, turn);
  return sliced ? sliced.value : JSON.parse(text);
}

async function parseBatchSlices(
  text: string,
  sliceChars: number,
  scan: BatchScan,
  turn: () => Promise<void>,
): Promise<{ value: unknown } | null> {
  const span = scan.arrays[0];
  if (!scan.complete || scan.arrays.length !== 1 || !span || span.close < 0) return null;
  const envelope = tryJson(`${text.slice(0, span.open)}[]${text.slice(span.close + 1)}`);
  if (!envelope || !isPlainRecord(envelope.value)) return null;
  const holder = envelope.value;
  const placeholder = Object.hasOwn(holder, "batch") ? holder.batch : undefined;
  if (!Array.isArray(placeholder) || placeholder.length !== 0) return null;

  const cuts = [...span.commas, span.close];
  const items: unknown[] = [];
  let fromAt = span.open;
  let to = 0;
  while (to < cuts.length) {
    let toAt = cuts[to] ?? span.close;
    for (let next = cuts[to + 1]; next !== undefined && next - fromAt <= sliceChars; ) {
      to += 1;
      toAt = next;
      next = cuts[to + 1];
    }
    const run = tryJson(`[${text.slice(fromAt + 1, toAt)}]`);
    if (!run || !Array.isArray(run.value)) return null;
    // Only `[]` itself may be empty: an empty run between commas is `[1,,2]`, `[,1]` or `[1,]`.
    if (run.value.length === 0 && cuts.length !== 1) return null;
    for (const item of run.value) items.push(item);
    fromAt = toAt;
    to += 1;
    if (to < cuts.length) await turn();
  }
  holder.batch = items;
  return { value: holder };
}

function tryJson(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Parses `{"batch": [...]}`; the events themselves are validated one by one later. A body
 * whose `batch` array is longer than `slicedAboveChars` is parsed in slices
 * (`parseJsonInSlices`), with the same result and errors, waiting for `turn` between slices.
 */
export async function parseEnvelope(
  text: string,
  slicedAboveChars: number = SLICED_PARSE_ABOVE_CHARS,
  turn: () => Promise<void> = nextTurn,
): Promise<unknown[]> {
  const scan = scanBatch(text, LIMITS.eventsPerBatch, text.length > slicedAboveChars);
  if (scan.largest > LIMITS.eventsPerBatch) {
    throw tooManyEvents(`more than ${LIMITS.eventsPerBatch}`);
  }
  // Only a long batch is worth slicing: the rest of the text is parsed in one step anyway.
  const batchChars = scan.arrays.reduce((chars, span) => chars + span.close - span.open, 0);
  const sliced = batchChars > slicedAboveChars;
  let json: unknown;
  try {
    json = sliced ? await parseJsonInSlices(text, PARSE_SLICE_CHARS, scan, turn) : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unreadable";
    throw new RequestRejected(400, `Body is not valid JSON: ${reason}.`);
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new RequestRejected(400, 'Body must be a JSON object {"batch": [event, ...]}.');
  }
  const { batch } = parsed.data;
  if (batch.length > LIMITS.eventsPerBatch) throw tooManyEvents(batch.length);
  return batch;
}
