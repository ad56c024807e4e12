/** Small pure hash functions (no Node modules), used for configuration versions. */

/**
 * FNV-1a, 64-bit, over the UTF-8 bytes of `text`, as 16 lowercase hex digits. The 64-bit state
 * is kept as two 32-bit halves: multiplying by the prime 2^40 + 0x1b3 is the low half times
 * 0x1b3 (its carry going to the high half), plus the low half shifted into the high half by 8.
 */
export function fnv1a64Hex(text: string): string {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (const byte of new TextEncoder().encode(text)) {
    low ^= byte;
    const product = (low >>> 0) * 0x1b3;
    const carry = Math.floor(product / 0x1_0000_0000);
    high = (Math.imul(high, 0x1b3) + carry + (low << 8)) >>> 0;
    low = product >>> 0;
  }
  return (high >>> 0).toString(16).padStart(8, "0") + (low >>> 0).toString(16).padStart(8, "0");
}

/**
 * JSON with object keys sorted at every level, so two objects with the same content always
 * serialise identically. Arrays keep their order; `undefined` members are left out; values
 * with a `toJSON` method are serialised through it; non-finite numbers become null.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "bigint") return JSON.stringify(value.toString());
  if (typeof value !== "object") return "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;

  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return canonicalJson(toJSON.call(value));

  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined && typeof member !== "function")
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`);
  return `{${members.join(",")}}`;
}
