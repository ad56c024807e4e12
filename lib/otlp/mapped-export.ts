/**
 * An OTLP export's spans mapped (`mapSpan`) and ready to store. Pure, so that it runs in the
 * checking thread (lib/ingest/check-thread.ts) as well as in the request's.
 */
import { inSlices } from "@/lib/ingest/cpu-slice";
import type { TraceExport } from "./decode";
import { type MappedLlmCall, type MappedToolRun, mapSpan } from "./mapping";
import type { OtlpSpan } from "./types";

export type Mapped = MappedLlmCall | MappedToolRun;

/** An export's mapped spans as plain data, as they cross from the thread that mapped them. */
export interface MappedSpans {
  spans: Mapped[];
  /** Spans that could not be read (refused while their neighbours are kept). */
  rejectedSpans: number;
  /** The first refused span's message; "" when none was refused. */
  errorMessage: string;
}

/** A span's identity within its tenant. */
export const spanKey = (s: { traceId: string; spanId: string }) => `${s.traceId}:${s.spanId}`;

/**
 * One export's spans mapped: spans of no family are left out, the first of two spans with one
 * id is the one kept, and a span that cannot be read is refused (counted, the first message
 * kept) while its neighbours are kept.
 */
export class MappedExport implements MappedSpans {
  readonly spans: Mapped[] = [];
  rejectedSpans = 0;
  errorMessage = "";
  private readonly seen = new Set<string>();

  add(span: OtlpSpan): void {
    const result = mapSpan(span);
    if (result.kind === "ignored") return;
    if (result.kind === "refused") {
      this.refuse(result.message);
      return;
    }
    const key = spanKey(result);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.spans.push(result);
  }

  refuse(message: string): void {
    this.rejectedSpans += 1;
    if (this.errorMessage === "") this.errorMessage = message;
  }

  /** What was mapped, without the ids seen on the way. */
  result(): MappedSpans {
    return {
      spans: this.spans,
      rejectedSpans: this.rejectedSpans,
      errorMessage: this.errorMessage,
    };
  }
}

/**
 * Decodes and maps an opened export one span at a time (only the mapped spans outlive their
 * decoding), in slices of `CPU_SLICE_MS` with `turn` between them.
 */
export async function mapExport(
  exported: TraceExport,
  turn: () => Promise<void>,
): Promise<MappedSpans> {
  const mapped = new MappedExport();
  await inSlices(exported.spans(), turn, (span) => mapped.add(span));
  return mapped.result();
}
