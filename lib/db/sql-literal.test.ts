import { createRequire } from "node:module";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { Random } from "@/lib/demo/random";
import { arrayLiteral, sqlArrayLiteral, sqlLiteral } from "./sql-literal";

/** node-postgres's conversion of a parameter (an array becomes array text); not typed by it. */
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as {
  prepareValue: (value: unknown) => unknown;
};

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

describe("arrayLiteral", () => {
  it("quotes every element, escaping backslashes and double quotes", () => {
    expect(arrayLiteral([])).toBe("{}");
    expect(arrayLiteral(["a", 'b"c', "d\\e", "", "{x,y}"])).toBe(
      '{"a","b\\"c","d\\\\e","","{x,y}"}',
    );
    expect(arrayLiteral([1, -2, 30])).toBe('{"1","-2","30"}');
  });

  it("writes the text node-postgres writes for an array parameter", () => {
    const random = new Random(20261205);
    const alphabet = ['"', "\\", "'", ",", "{", "}", "a", "é", " ", "NULL", "😀"];
    for (let i = 0; i < 1_000; i++) {
      const values = Array.from({ length: random.int(0, 6) }, () => {
        let text = "";
        for (let c = random.int(0, 8); c > 0; c--) text += random.pick(alphabet);
        return text;
      });
      expect(arrayLiteral(values)).toBe(prepareValue(values));
      const numbers = values.map((text) => text.length * 7 - 20);
      expect(arrayLiteral(numbers)).toBe(prepareValue(numbers));
    }
  });
});

describe("sqlArrayLiteral", () => {
  it("writes the array text as a string literal", () => {
    expect(sqlArrayLiteral([])).toBe("'{}'");
    expect(sqlArrayLiteral(["it's", "a\\b"])).toBe(` E'{"it''s","a\\\\\\\\b"}'`);
  });
});
