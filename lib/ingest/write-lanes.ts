/**
 * Who is written next: the group-commit queue of ingest, with a lane for tenants that are not
 * writing already.
 *
 * Concurrent requests queue, and a writer takes as many of them as fit in one transaction
 * (group commit). With only shared writers, a tenant that sends one batch at a time waits
 * behind whoever keeps the queue full: for a writer to come free — one transaction of
 * someone else's 2,000 events — and then for a transaction of 2,000 events of which its 20
 * are a part. Its latency is the flood's, even when its tenant's limits keep the flood's
 * throughput down.
 *
 * So a request is *express* when, on arrival, its tenant has nothing else queued or being
 * written and it holds at most `expressMaxEvents` events. Besides the `writers` shared writers,
 * one more writer takes express requests only, and the shared writers take express requests
 * before the rest; express requests are grouped only with each other. A tenant sending one
 * batch at a time is then written at once, in a short transaction of lone tenants' batches; a
 * tenant with several requests in the queue shares the other writers, first come first served. A flood of one tenant can still slow the others
 * down through the CPU and the disk it uses, not through the queue.
 */

export interface LaneRequest {
  readonly tenant: string;
  /** The request's events (a transaction's size is counted in them). */
  readonly items: readonly unknown[];
  /** Fails the request, if its group's write throws before settling it. */
  reject(error: unknown): void;
}

export interface WriteLanesOptions {
  /** Writers that take any request. */
  readonly writers: number;
  /** A writer stops adding requests to a group once it holds this many events. */
  readonly maxEventsPerGroup: number;
  /** The largest request that can be express. */
  readonly expressMaxEvents: number;
}

interface Entry<R> {
  readonly request: R;
  readonly express: boolean;
}

export class WriteLanes<R extends LaneRequest> {
  private readonly queue: Entry<R>[] = [];
  /** Requests of each tenant queued or being written. */
  private readonly outstanding = new Map<string, number>();
  private sharedActive = 0;
  private expressActive = false;

  /**
   * `writeGroup` writes one group and settles each of its requests (a group that fails
   * settles them with the failure); should it throw instead, its requests are rejected with
   * what it threw.
   */
  constructor(
    private readonly writeGroup: (group: R[]) => Promise<void>,
    readonly options: WriteLanesOptions,
  ) {}

  /** Requests waiting for a writer. */
  get queued(): number {
    return this.queue.length;
  }

  /** Queues `request`; returns whether it was express. */
  submit(request: R): boolean {
    const before = this.outstanding.get(request.tenant) ?? 0;
    const express = before === 0 && request.items.length <= this.options.expressMaxEvents;
    this.outstanding.set(request.tenant, before + 1);
    this.queue.push({ request, express });
    if (this.sharedActive < this.options.writers) void this.drain(false);
    else if (express && !this.expressActive) void this.drain(true);
    return express;
  }

  private async drain(expressLane: boolean): Promise<void> {
    if (expressLane) this.expressActive = true;
    else this.sharedActive += 1;
    try {
      for (;;) {
        const group = this.takeGroup(expressLane);
        if (group.length === 0) return;
        try {
          await this.writeGroup(group);
        } catch (error) {
          for (const request of group) request.reject(error);
        } finally {
          for (const request of group) this.finished(request.tenant);
        }
      }
    } finally {
      if (expressLane) this.expressActive = false;
      else this.sharedActive -= 1;
    }
  }

  /**
   * The next group: express requests, in arrival order, if any wait — grouped only with each
   * other, so that their transaction stays as short as they are; otherwise, for a shared
   * writer, the others in arrival order. A group stops growing once it holds
   * `maxEventsPerGroup` events (a single request larger than that is a group of its own).
   */
  private takeGroup(expressOnly: boolean): R[] {
    const express = this.take((entry) => entry.express);
    return express.length > 0 || expressOnly ? express : this.take(() => true);
  }

  private take(wanted: (entry: Entry<R>) => boolean): R[] {
    const group: R[] = [];
    let size = 0;
    let i = 0;
    while (i < this.queue.length && (group.length === 0 || size < this.options.maxEventsPerGroup)) {
      const entry = this.queue[i] as Entry<R>;
      if (!wanted(entry)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      group.push(entry.request);
      size += entry.request.items.length;
    }
    return group;
  }

  private finished(tenant: string): void {
    const left = (this.outstanding.get(tenant) ?? 1) - 1;
    if (left === 0) this.outstanding.delete(tenant);
    else this.outstanding.set(tenant, left);
  }
}
