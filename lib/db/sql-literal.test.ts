import pg from "pg";
import { describe, expect, it } from "vitest";
import { Random } from "@/lib/demo/random";
import { sqlLiteral } from "./sql-literal";

describe("sqlLiteral", () => {
  it("doubles quotes, and doubles backslashes behind an E prefix", () => {
    expect(sqlLiteral("")).toBe("''");
    expect(sqlLiteral("it's")).toBe("'it''s'");
    expect(sqlLiteral("a\\b'c")).toBe(" E'a\\\\b''c'");
    expect(sqlLiteral('{"a":"\\u0001"}')).toBe(` E'{"a":"\\\\u0001"}'`);
  });

  it("writes the literal node-postgres's escapeLiteral writes, for any text", () => {
    const random = new Random(20261205);
    const alphabet = ["'", "\\", '"', "a", "é", "\u0001", "\n", "😀", "E", " "];
    for (let i = 0; i < 2_000; i++) {
      const length = random.int(0, 40);
      let text = "";
      for (let c = 0; c < length; c++) text += random.pick(alphabet);
      expect(sqlLiteral(text)).toBe(pg.escapeLiteral(text));
    }
  });
});
