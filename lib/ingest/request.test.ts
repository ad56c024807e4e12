import { describe, expect, it } from "vitest";
import { countBatchItems, ParseBudget, parseEnvelope, RequestRejected } from "./request";

const batchOf = (n: number, item = "{}") =>
  `{"batch":[${Array.from({ length: n }, () => item).join(",")}]}`;

describe("countBatchItems", () => {
  it("counts the items of the batch array whatever they hold", () => {
    expect(countBatchItems('{"batch":[]}', 1000)).toBe(0);
    expect(countBatchItems('{ "batch" : [ ] }', 1000)).toBe(0);
    expect(countBatchItems(batchOf(3), 1000)).toBe(3);
    expect(
      countBatchItems('{"batch":[{"a":[1,2,{"b":"],[,"}]}, "x,y", 3, [4,5], null]}', 1000),
    ).toBe(5);
    expect(countBatchItems('{"pad":[1,2,3],"batch":[1]}', 1000)).toBe(1);
    expect(countBatchItems('{"b\\u0061tch":[1,2]}', 1000)).toBe(2);
    expect(countBatchItems('{"note":"batch","x":[1,2]}', 1000)).toBe(0);
  });

  it("skips strings with escaped quotes and backslashes", () => {
    const text = JSON.stringify({ batch: ['a"b', "c\\", '\\"]', "[{,", { k: 'x\\"' }] });
    expect(countBatchItems(text, 1000)).toBe(JSON.parse(text).batch.length);
    expect(countBatchItems('{"batch":["unterminated', 1000)).toBe(1);
  });

  it("stops one past the limit", () => {
    expect(countBatchItems(batchOf(5000), 1000)).toBe(1001);
  });
});

describe("parseEnvelope", () => {
  it("accepts exactly the limit and refuses one more before parsing", () => {
    expect(parseEnvelope(batchOf(1000))).toHaveLength(1000);
    expect(() => parseEnvelope(batchOf(1001))).toThrow(/at most 1000 per request/);
    try {
      parseEnvelope(batchOf(1001));
    } catch (error) {
      expect(error).toBeInstanceOf(RequestRejected);
      expect((error as RequestRejected).status).toBe(413);
    }
  });
});

describe("ParseBudget", () => {
  it("refuses bytes past the limit with 503 and takes them back on release", () => {
    const budget = new ParseBudget(100);
    const first = budget.lease("a");
    first.take(45);
    const second = budget.lease("b");
    second.take(45);
    const third = budget.lease("c");
    expect(() => third.take(20)).toThrow(/busy reading other ingest requests/);
    third.take(10);
    expect(budget.inUse).toBe(100);
    first.release();
    second.release();
    third.release();
    expect(budget.inUse).toBe(0);
    second.release();
    expect(budget.inUse).toBe(0);
    expect(() => second.take(1)).toThrow(RequestRejected);
    expect(budget.inUse).toBe(0);
  });

  it("lets one tenant hold at most half of the bytes, leaving the rest to the others", () => {
    const budget = new ParseBudget(100);
    const attacker = budget.lease("a");
    attacker.take(50);
    let refused: unknown = null;
    try {
      budget.lease("a").take(1);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RequestRejected);
    expect((refused as RequestRejected).status).toBe(503);
    expect((refused as RequestRejected).retryAfterSeconds).toBe(1);
    expect((refused as RequestRejected).message).toMatch(/tenant may hold at most/);
    const other = budget.lease("b");
    other.take(50);
    expect(budget.inUseBy("a")).toBe(50);
    expect(budget.inUseBy("b")).toBe(50);
    attacker.release();
    expect(budget.inUseBy("a")).toBe(0);
    budget.lease("a").take(50);
  });
});
