import { describe, expect, it } from "vitest";
import type { EventError } from "./events";
import { boundJsonText, ERRORS_IN_FULL, ingestResponseBody, RESPONSE_BYTES } from "./report";

function error(index: number, overrides: Partial<EventError> = {}): EventError {
  return {
    index,
    id: `evt-${index}`,
    status: 400,
    message: `batch[${index}].offered[0]: expected string, received number`,
    problems: [
      { path: `batch[${index}].offered[0]`, rule: "expected string, received number" },
      { path: `batch[${index}].offered[1]`, rule: "expected string, received number" },
    ],
    ...overrides,
  };
}

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("ingestResponseBody", () => {
  it("lists every error when there are few, with no summary", () => {
    const body = ingestResponseBody([{ id: "a", status: 201 }], [error(1), error(2)]);
    expect(body).toEqual({
      successes: [{ id: "a", status: 201 }],
      errors: [1, 2].map((i) => ({
        id: `evt-${i}`,
        index: i,
        status: 400,
        message: `batch[${i}].offered[0]: expected string, received number`,
      })),
    });
  });

  it("lists the first errors in full and counts the rest per rule and path", () => {
    const errors = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0
        ? error(i)
        : error(i, {
            status: 403,
            problems: [{ path: `batch[${i}].tenant_id`, rule: "not this key's tenant" }],
          }),
    );
    const body = ingestResponseBody([], errors);
    expect(body.errors).toHaveLength(ERRORS_IN_FULL);
    expect(body.errors.map((e) => e.index)).toEqual(
      errors.slice(0, ERRORS_IN_FULL).map((e) => e.index),
    );
    expect(body.elided_errors?.count).toBe(1000 - ERRORS_IN_FULL);
    expect(body.elided_errors?.indexes).toEqual(
      Array.from({ length: 1000 - ERRORS_IN_FULL }, (_, i) => i + ERRORS_IN_FULL),
    );
    // Each event counts once per rule, although it broke it at two indexes.
    expect(body.elided_errors?.by_rule).toEqual([
      {
        status: 400,
        path: "batch[*].offered[*]",
        rule: "expected string, received number",
        events: 485,
      },
      { status: 403, path: "batch[*].tenant_id", rule: "not this key's tenant", events: 485 },
    ]);
  });

  it("stays within the size bound for the worst errors a batch can produce", () => {
    // Ids of 128 control characters (6 bytes each in JSON), long messages, and a distinct
    // unknown field per event, so that no two events share a rule.
    const id = "\u0001".repeat(128);
    const errors = Array.from({ length: 1000 }, (_, i) =>
      error(i, {
        id,
        message: `batch[${i}].${"\u0002".repeat(5000)}: unknown field`,
        problems: Array.from({ length: 5 }, (_, k) => ({
          path: `batch[${i}].${"\u0003".repeat(190)}${i}-${k}`,
          rule: `${"\u0004".repeat(190)}`,
        })),
      }),
    );
    const body = ingestResponseBody([], errors);
    expect(size(body)).toBeLessThanOrEqual(RESPONSE_BYTES);
    expect(body.errors.length).toBeGreaterThan(0);
    expect(body.elided_errors?.by_rule).toHaveLength(20);
    expect(body.elided_errors?.by_rule.at(-1)?.path).toBe("(other)");
    expect(body.errors.length + (body.elided_errors?.count ?? 0)).toBe(1000);
  });

  it("lists fewer errors in full next to many successes, and at least one", () => {
    const successes = Array.from({ length: 990 }, (_, i) => ({
      id: "x".repeat(100) + i,
      status: 201,
    }));
    const errors = Array.from({ length: 10 }, (_, i) => error(990 + i));
    const body = ingestResponseBody(successes, errors);
    expect(body.errors).toHaveLength(1);
    expect(body.elided_errors?.count).toBe(9);
  });
});

describe("boundJsonText", () => {
  it("keeps short text and cuts long or escape-heavy text to the JSON length", () => {
    expect(boundJsonText("short", 100)).toBe("short");
    const cut = boundJsonText("\n".repeat(1000), 100);
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(100);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("boundJsonText against JSON.stringify", () => {
  it("never exceeds the bound and keeps what fits", () => {
    const samples = [
      "plain text ".repeat(40),
      '"quoted" \\ back'.repeat(30),
      "\u0001\u0002\n\t".repeat(60),
      "😀 emoji pairs ".repeat(40),
      "\uD800 lone \uDC00 ".repeat(40),
    ];
    for (const text of samples) {
      for (const max of [10, 57, 100, 240]) {
        const cut = boundJsonText(text, max);
        expect(JSON.stringify(cut).length).toBeLessThanOrEqual(max);
        expect(text.startsWith(cut.slice(0, -1))).toBe(true);
        expect(JSON.stringify(cut).length).toBeGreaterThan(max - 7);
      }
    }
  });
});
