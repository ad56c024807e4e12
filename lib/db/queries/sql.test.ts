import { describe, expect, it } from "vitest";
import { likePrefix } from "./sql";

describe("likePrefix", () => {
  it("escapes LIKE's wildcards and its escape character, then matches any rest", () => {
    expect(likePrefix("run-1")).toBe("run-1%");
    expect(likePrefix("50%")).toBe("50\\%%");
    expect(likePrefix("a_b")).toBe("a\\_b%");
    expect(likePrefix("back\\slash")).toBe("back\\\\slash%");
    expect(likePrefix("%_\\")).toBe("\\%\\_\\\\%");
  });
});
