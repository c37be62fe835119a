// The seed's five tests, on the cases its text walks through: strict point tests, rects that
// touch or contain each other, circles that touch, and the rect-circle corner regions.
import { describe, expect, it } from "vitest";
import { circleCircle, HitcoreError, Kind, overlapShapes, pointInCircle, pointInRect, rectCircle, rectRect } from "../bindings/node.js";
import { BACKENDS, newWorld } from "./support.js";

describe("the seed's intersection tests", () => {
  it("point in rect: inside on both axes, strictly", () => {
    expect(pointInRect(5, 5, 0, 0, 10, 10)).toBe(true); // point 4: in range of all four sides
    expect(pointInRect(5, 15, 0, 0, 10, 10)).toBe(false); // point 1: x in range, y not
    expect(pointInRect(15, 15, 0, 0, 10, 10)).toBe(false); // point 2: neither
    expect(pointInRect(15, 5, 0, 0, 10, 10)).toBe(false); // point 3: y in range, x not
    expect(pointInRect(10, 5, 0, 0, 10, 10)).toBe(false); // on the right edge: not inside
  });

  it("point in circle: squared distance strictly below the squared radius", () => {
    expect(pointInCircle(3, 4, 0, 0, 5.01)).toBe(true);
    expect(pointInCircle(3, 4, 0, 0, 5)).toBe(false); // on the circle
  });

  it("two rects: touching edges and containment overlap, a gap does not", () => {
    expect(rectRect(0, 0, 10, 10, 10, 0, 20, 10)).toBe(true); // right side meets left side
    expect(rectRect(0, 0, 10, 10, 2, 2, 4, 4)).toBe(true); // one consumes the other
    expect(rectRect(0, 0, 10, 10, 10.5, 0, 20, 10)).toBe(false);
    expect(rectRect(0, 0, 10, 10, 0, -5, 10, -0.5)).toBe(false); // above
  });

  it("two circles: closer than the sum of the radii, touching is not enough", () => {
    expect(circleCircle(0, 0, 3, 5, 0, 2.5)).toBe(true);
    expect(circleCircle(0, 0, 3, 5, 0, 2)).toBe(false);
  });

  it("rect and circle: bounding square, then the corner only in the corner regions", () => {
    // Beside an edge (not a corner region): the bounding-square test decides.
    expect(rectCircle(0, 0, 10, 10, -2, 5, 3)).toBe(true);
    expect(rectCircle(0, 0, 10, 10, -3, 5, 3)).toBe(true); // touches the left side: not separated
    expect(rectCircle(0, 0, 10, 10, -3.5, 5, 3)).toBe(false);
    // Top-left corner region: the square overlaps the rect, but the corner is outside the circle.
    expect(rectCircle(0, 0, 10, 10, -2.5, -2.5, 3)).toBe(false);
    expect(rectCircle(0, 0, 10, 10, -2, -2, 3)).toBe(true); // corner (0,0) at distance 2.83 < 3
    // The other three corners.
    expect(rectCircle(0, 0, 10, 10, 12.5, -2.5, 3)).toBe(false);
    expect(rectCircle(0, 0, 10, 10, 12, 12, 3)).toBe(true);
    expect(rectCircle(0, 0, 10, 10, -2.5, 12.5, 3)).toBe(false);
    // Centre inside the rect.
    expect(rectCircle(0, 0, 10, 10, 5, 5, 0)).toBe(true);
  });

  it("the world runs the same tests as the single-pair functions", async () => {
    for (const backend of BACKENDS) {
      const w = await newWorld(backend);
      const rect = w.addRect(0, 0, 10, 10, 1);
      const corner = w.addCircle(-2.5, -2.5, 3, 2); // outside the corner
      const near = w.addCircle(-2, -2, 3, 2); // inside the corner
      const edge = w.addPoint(10, 5, 2); // on the right edge
      const right = w.addRect(10, 0, 5, 5, 2); // touching the right side
      expect(w.crossPairs(1, 2)).toBe(2);
      const found = [w.pairs[1], w.pairs[3]].sort((a, b) => a - b);
      expect(found).toEqual([w.indexOf(near), w.indexOf(right)]);
      expect(w.touching(corner, 1)).toBe(0);
      expect(w.touching(edge, 1)).toBe(0);
      expect(overlapShapes(Kind.Rect, 0, 0, 10, 10, Kind.Point, 10, 5, 0, 0)).toBe(false);
      expect(overlapShapes(Kind.Circle, -2, -2, 3, 0, Kind.Rect, 0, 0, 10, 10)).toBe(true);
      expect(w.has(rect)).toBe(true);
    }
  });
});

describe("the stateless tests refuse what is no number", () => {
  it("a symbol, a BigInt or an object whose valueOf throws gives a HitcoreError naming the argument", () => {
    const calls: [string, (v: unknown) => unknown][] = [
      ["pointInRect", (v) => pointInRect(1, 2, v as number, 0, 5, 5)],
      ["pointInCircle", (v) => pointInCircle(1, 2, 0, 0, v as number)],
      ["rectRect", (v) => rectRect(0, 0, 1, 1, 0, v as number, 2, 2)],
      ["circleCircle", (v) => circleCircle(0, 0, 1, v as number, 0, 1)],
      ["rectCircle", (v) => rectCircle(0, 0, 1, 1, v as number, 0, 1)],
      ["overlapShapes", (v) => overlapShapes(Kind.Circle, 0, 0, 1, 0, Kind.Circle, v as number, 0, 1, 0)],
    ];
    const bad = [Symbol("s"), 3n, { valueOf() { throw new Error("no"); } }];
    for (const [name, call] of calls) {
      for (const v of bad) {
        let got: unknown = null;
        try { call(v); } catch (e) { got = e; }
        // A BigInt compared with a number is no error; in arithmetic it is.
        if (got === null && typeof v === "bigint") continue;
        expect(got, `${name}(${typeof v})`).toBeInstanceOf(HitcoreError);
        expect((got as HitcoreError).code).toBe("INVALID_NUMBER");
        expect((got as HitcoreError).message).toContain(name);
      }
      expect(typeof call(1)).toBe("boolean");
    }
  });
});
