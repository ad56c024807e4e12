/**
 * Reading and checking an ingest request before any event is looked at: content type,
 * encoding, size and the `{batch: [...]}` envelope (SPEC §3). Each failure carries the HTTP
 * status and a message that says what to fix.
 */
import { createGunzip } from "node:zlib";
import { envelopeSchema } from "@/lib/schemas/envelope";
import { LIMITS } from "@/lib/schemas/events";

export class RequestRejected extends Error {
  constructor(
    readonly status: 400 | 401 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "RequestRejected";
  }
}

const MAX_MIB = LIMITS.bodyBytes / (1024 * 1024);

export function bearerToken(header: string | null): string {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match?.[1]) {
    throw new RequestRejected(
      401,
      "Missing API key: send `Authorization: Bearer <key>` (create one with `npm run keys -- create <tenant>`).",
    );
  }
  return match[1];
}

export function checkContentType(header: string | null): void {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new RequestRejected(
      415,
      `Content-Type must be application/json (got ${header ? `"${header}"` : "none"}).`,
    );
  }
}

/** Reads the body, gunzipping it when Content-Encoding says gzip, never past the size limit. */
export async function readBody(request: Request): Promise<string> {
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
  const raw = await readLimited(request.body, LIMITS.bodyBytes, "Request body");
  if (encoding !== "gzip") return raw.toString("utf8");
  return (await gunzipLimited(raw, LIMITS.bodyBytes)).toString("utf8");
}

async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  what: string,
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
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

function gunzipLimited(compressed: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    gunzip.on("data", (chunk: Buffer) => {
      size += chunk.length;
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
      chunks.push(chunk);
    });
    gunzip.on("end", () => resolve(Buffer.concat(chunks)));
    gunzip.on("error", () =>
      reject(new RequestRejected(400, "Body is marked gzip but is not valid gzip data.")),
    );
    gunzip.end(compressed);
  });
}

/** Parses `{"batch": [...]}`; the events themselves are validated one by one later. */
export function parseEnvelope(text: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unreadable";
    throw new RequestRejected(400, `Body is not valid JSON: ${reason}.`);
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new RequestRejected(400, 'Body must be a JSON object {"batch": [event, ...]}.');
  }
  const { batch } = parsed.data;
  if (batch.length > LIMITS.eventsPerBatch) {
    throw new RequestRejected(
      413,
      `batch has ${batch.length} events; at most ${LIMITS.eventsPerBatch} per request.`,
    );
  }
  return batch;
}
