/**
 * Reads a backtest's window in (ts, id) order, several chunks in flight at once. The window is
 * cut into slices of about a chunk each (`planWindow`, from the minute rollups), so the
 * next slices can be read on other connections while the first is replayed: PostgreSQL's
 * work for the job, most of the job's cost, then runs on more than one core. A slice that
 * holds more than a chunk is read on in keyset order before the slices after it are handed out.
 */
import "server-only";
import type pg from "pg";
import {
  type ClaimedBacktest,
  type Cursor,
  type DecisionTexts,
  readDecisions,
} from "@/lib/db/queries/backtest-job";
import type { RecordedDecision } from "./replay";

type Scope = Pick<ClaimedBacktest, "tenantId" | "roles" | "from" | "to">;

interface Slice {
  from: Date;
  to: Date;
}

interface Read {
  slice: Slice;
  decisions: Promise<RecordedDecision[]>;
}

export class WindowReader {
  private readonly slices: Slice[] = [];
  private handedOut = 0;
  private readonly reads: Read[] = [];
  /** Reads go to the connections in turn (each runs its reads in the order given). */
  private started = 0;

  /**
   * @param cursor where the window resumes: after this decision, or at the window's start.
   * @param cuts the slices' edges after the resume point (`planWindow`), ascending.
   * @param inFlight most reads in flight while the caller replays what it was handed.
   * @param connections where to read (`openReadConnections`); none: any pooled connection.
   */
  constructor(
    private readonly scope: Scope,
    private readonly cursor: Cursor | null,
    cuts: readonly Date[],
    private readonly chunkSize: number,
    private readonly inFlight: number,
    private readonly texts: DecisionTexts,
    private readonly connections: readonly pg.PoolClient[] = [],
  ) {
    let from = cursor?.ts ?? scope.from;
    for (const cut of cuts) {
      if (cut <= from || cut >= scope.to) continue;
      this.slices.push({ from, to: cut });
      from = cut;
    }
    this.slices.push({ from, to: scope.to });
  }

  /** The next decisions of the window, at most a chunk; none at its end. */
  async next(): Promise<RecordedDecision[]> {
    for (;;) {
      this.readAhead();
      const read = this.reads.shift();
      if (!read) return [];
      this.readAhead();
      const decisions = await read.decisions;
      const last = decisions.at(-1);
      if (last && decisions.length === this.chunkSize) {
        // The slice may hold more: its next chunk comes before any later slice's.
        this.reads.unshift(this.read(read.slice, { ts: last.ts, id: last.id }));
      }
      if (last) return decisions;
    }
  }

  private readAhead(): void {
    while (this.reads.length < this.inFlight && this.handedOut < this.slices.length) {
      const slice = this.slices[this.handedOut] as Slice;
      this.reads.push(this.read(slice, this.handedOut === 0 ? this.cursor : null));
      this.handedOut++;
    }
  }

  private read(slice: Slice, after: Cursor | null): Read {
    const connection =
      this.connections.length > 0
        ? this.connections[this.started++ % this.connections.length]
        : undefined;
    const decisions = readDecisions(
      { ...this.scope, from: slice.from, to: slice.to },
      after,
      this.chunkSize,
      this.texts,
      connection,
    );
    // Awaited in turn; one that fails before its turn must not go unhandled meanwhile.
    decisions.catch(() => {});
    return { slice, decisions };
  }
}
