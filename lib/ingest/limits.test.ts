import { describe, expect, it } from "vitest";
import type { IngestLimits } from "@/lib/schemas/ingest-limits";
import { type IngestCaller, IngestLimiter, type LimitRefusal } from "./limits";

const LIMITS: IngestLimits = {
  tenant: { eventsPerSecond: 1_000, burst: 2_000, concurrentRequests: 3 },
  key: { eventsPerSecond: 500, burst: 1_000, concurrentRequests: 2 },
};

function caller(tenant: string, keyId: string, limits = LIMITS): IngestCaller {
  return { tenant, keyId, keyPrefix: `rl_${keyId}`, limits };
}

/** One request of `events` events: entered, counted and ended; its refusal, if any. */
function send(limiter: IngestLimiter, c: IngestCaller, events: number): LimitRefusal | null {
  const entered = limiter.enter(c);
  if ("refused" in entered) return entered.refused;
  const refused = entered.spend(events);
  entered.release();
  return refused;
}

function released(entered: ReturnType<IngestLimiter["enter"]>): () => void {
  if ("refused" in entered) throw new Error(entered.refused.message);
  return entered.release;
}

describe("IngestLimiter", () => {
  it("refuses a key's request beyond its concurrent requests, and names the limit", () => {
    const limiter = new IngestLimiter(() => 0);
    const a = caller("acme", "k1");
    const first = released(limiter.enter(a));
    released(limiter.enter(a));
    const third = limiter.enter(a);
    expect(third).toMatchObject({ refused: { retryAfterSeconds: 1 } });
    if (!("refused" in third)) return;
    expect(third.refused.message).toContain('API key rl_k1… of tenant "acme"');
    expect(third.refused.message).toContain("2 ingest requests in progress");
    first();
    first(); // a second release changes nothing
    released(limiter.enter(a));
    expect(limiter.enter(a)).toHaveProperty("refused");
  });

  it("refuses a tenant's request beyond its concurrent requests, whatever the key", () => {
    const limiter = new IngestLimiter(() => 0);
    released(limiter.enter(caller("acme", "k1")));
    released(limiter.enter(caller("acme", "k2")));
    released(limiter.enter(caller("acme", "k3")));
    const refused = limiter.enter(caller("acme", "k4"));
    expect(refused).toHaveProperty("refused");
    if ("refused" in refused) expect(refused.refused.message).toContain('Tenant "acme"');
    // Another tenant is not affected.
    released(limiter.enter(caller("other", "k9")));
  });

  it("charges a batch to both buckets, refuses the one over and takes nothing", () => {
    let now = 0;
    const limiter = new IngestLimiter(() => now);
    const k1 = caller("acme", "k1");
    const k2 = caller("acme", "k2");
    expect(send(limiter, k1, 1_000)).toBeNull();
    // k1's bucket (burst 1,000) is empty; the request is taken to be as large as k1's last
    // batch: 1,000 tokens at 500/s.
    const refused = send(limiter, k1, 500);
    expect(refused).toMatchObject({ retryAfterSeconds: 2 });
    expect(refused?.message).toContain("API key rl_k1…");
    expect(refused?.message).toContain("500 events per second (burst 1,000)");
    // The tenant still holds 1,000: another key of it is admitted, and empties it.
    expect(send(limiter, k2, 1_000)).toBeNull();
    const tenantRefusal = send(limiter, k2, 1_000);
    // Tenant: 1,000 at 1,000/s = 1 s; key k2: 1,000 at 500/s = 2 s, the longer wait.
    expect(tenantRefusal).toMatchObject({ retryAfterSeconds: 2 });
    now = 2_000;
    expect(send(limiter, k2, 1_000)).toBeNull();
  });

  it("refuses before the body when a bucket is in debt, with the time until it is repaid", () => {
    let now = 0;
    const limiter = new IngestLimiter(() => now);
    const a = caller("acme", "k1");
    // 3,000 events: above both bursts, admitted from full buckets; the key owes 2,000.
    expect(send(limiter, a, 3_000)).toBeNull();
    const entered = limiter.enter(a);
    // Before its body is read a request is taken to be as large as the key's last batch, at
    // most the burst: the key needs 1,000 tokens, 3,000 at 500/s = 6 s (the tenant 3 s).
    expect(entered).toMatchObject({ refused: { retryAfterSeconds: 6 } });
    if ("refused" in entered) {
      expect(entered.refused.message).toContain("refused before it was read");
      expect(entered.refused.message).toContain("the 1,000 events of the key's last batch");
    }
    now = 5_999;
    expect(limiter.enter(a)).toHaveProperty("refused");
    now = 6_000;
    released(limiter.enter(a));
  });

  it("applies changed limits to the next request", () => {
    const limiter = new IngestLimiter(() => 0);
    expect(send(limiter, caller("acme", "k1"), 900)).toBeNull();
    const lowered: IngestLimits = {
      tenant: { eventsPerSecond: 10, burst: 20, concurrentRequests: 1 },
      key: LIMITS.key,
    };
    // The tenant's bucket starts again full at the new burst of 20: a batch of 50 is admitted
    // and leaves it owing 30.
    expect(send(limiter, caller("acme", "k2", lowered), 50)).toBeNull();
    const refused = send(limiter, caller("acme", "k2", lowered), 5);
    expect(refused?.message).toContain('Tenant "acme" is over its ingest limit of 10 events');
    // Taken to be as large as the last batch, at most the burst: 50 tokens at 10/s.
    expect(refused?.retryAfterSeconds).toBe(5);
  });

  it("refuses a remembered key over its limits before its lookup, for a second", () => {
    let now = 0;
    const limiter = new IngestLimiter(() => now);
    const a = caller("acme", "k1");
    expect(limiter.refusalBeforeLookup("hash-1")).toBeNull();
    limiter.remember("hash-1", a);
    expect(limiter.refusalBeforeLookup("hash-1")).toBeNull();
    // 3,000 events: the key (500/s, burst 1,000) owes 2,000, 4 s of refill.
    expect(send(limiter, a, 3_000)).toBeNull();
    expect(limiter.refusalBeforeLookup("hash-1")).toMatchObject({ retryAfterSeconds: 6 });
    now = 999;
    expect(limiter.refusalBeforeLookup("hash-1")).not.toBeNull();
    // A lookup a second old is not used: the request is looked up (its limits may have changed).
    now = 1_000;
    expect(limiter.refusalBeforeLookup("hash-1")).toBeNull();
    limiter.remember("hash-1", a);
    expect(limiter.refusalBeforeLookup("hash-1")).not.toBeNull();
    limiter.forget("hash-1");
    expect(limiter.refusalBeforeLookup("hash-1")).toBeNull();
  });

  it("reserves a request's expected tokens while it is read, and gives them back unspent", () => {
    const limiter = new IngestLimiter(() => 0);
    const a = caller("acme", "k1");
    expect(send(limiter, a, 500)).toBeNull();
    // The key holds 500 of 1,000: one more batch of 500 is admitted to be read, not two.
    const first = limiter.enter(a);
    expect(first).not.toHaveProperty("refused");
    expect(limiter.enter(a)).toHaveProperty("refused");
    if ("refused" in first) return;
    // Ended without counting its events (a refused body): its reservation is given back.
    first.release();
    const again = limiter.enter(a);
    expect(again).not.toHaveProperty("refused");
    if ("refused" in again) return;
    // A smaller batch than reserved takes only its own tokens.
    expect(again.spend(100)).toBeNull();
    again.release();
    expect(send(limiter, a, 400)).toBeNull();
  });
});
