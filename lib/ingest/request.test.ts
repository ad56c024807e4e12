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
    const first = budget.lease();
    first.take(60);
    const second = budget.lease();
    expect(() => second.take(50)).toThrow(/busy reading other ingest requests/);
    second.take(40);
    expect(budget.inUse).toBe(100);
    first.release();
    second.release();
    expect(budget.inUse).toBe(0);
    second.release();
    expect(budget.inUse).toBe(0);
  });
});
