/**
 * A small seeded pseudo-random generator (mulberry32) with the draws the demo traffic needs.
 * The same seed gives the same sequence in every process, so demo data is reproducible.
 */

/** A 32-bit seed from any mix of strings and numbers (FNV-1a 32 over their text). */
export function hashSeed(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = parts.join("\u0001");
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick() from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One item, chosen with probability proportional to `weight(item)`. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    const total = items.reduce((sum, item) => sum + Math.max(0, weight(item)), 0);
    if (items.length === 0 || total <= 0) throw new RangeError("weighted() needs positive weights");
    let target = this.next() * total;
    for (const item of items) {
      target -= Math.max(0, weight(item));
      if (target < 0) return item;
    }
    return items[items.length - 1] as T;
  }

  /** A standard normal draw (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A log-normal duration around `median` (its spread `sigma` in log space). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** A Poisson count with mean `lambda` (normal approximation above 30). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let count = 0;
    let product = this.next();
    while (product > limit) {
      count++;
      product *= this.next();
    }
    return count;
  }

  /** A lowercase base-36 identifier of `length` characters. */
  id(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += Math.floor(this.next() * 36).toString(36);
    return out;
  }
}
