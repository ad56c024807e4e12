/**
 * A bound on the ingest requests of one tenant being checked at once. Parsing a batch and
 * checking its events is the CPU-heavy part of ingest, done on one thread (the checking thread,
 * or where there is none the one that serves every request, job-checker.ts); a tenant sending
 * many batches at once would otherwise have that many of them taking turns on it, and every
 * other request (other tenants' batches, and without a checking thread health checks too)
 * waits behind all of those turns. With a bound, a tenant's further requests wait in its own line,
 * first come first served, and are never refused for it; other tenants' lines are not
 * affected. Their bodies are read before they wait, so they hold the tenant's share of the
 * parse budget (`ParseBudget`) while in line, which bounds the line's memory.
 *
 * Storing is not part of the slot: it is grouped across requests and bounded on its own
 * (`store.ts`).
 */

interface Line {
  active: number;
  waiting: (() => void)[];
}

export class TenantSlots {
  private readonly lines = new Map<string, Line>();

  constructor(readonly perTenant: number) {}

  /** Requests of `tenant` being checked now. */
  activeFor(tenant: string): number {
    return this.lines.get(tenant)?.active ?? 0;
  }

  /** Requests of `tenant` waiting for a slot. */
  waitingFor(tenant: string): number {
    return this.lines.get(tenant)?.waiting.length ?? 0;
  }

  /** Waits for a slot of `tenant`; resolves with the function that gives it back (once). */
  async acquire(tenant: string): Promise<() => void> {
    let line = this.lines.get(tenant);
    if (!line) {
      line = { active: 0, waiting: [] };
      this.lines.set(tenant, line);
    }
    if (line.active < this.perTenant) {
      line.active++;
    } else {
      const waiting = line.waiting;
      // The slot is handed over by `release`, so `active` already counts this request.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(tenant);
    };
  }

  private release(tenant: string): void {
    const line = this.lines.get(tenant);
    if (!line) return;
    const next = line.waiting.shift();
    if (next) {
      next();
      return;
    }
    line.active--;
    if (line.active === 0) this.lines.delete(tenant);
  }
}
