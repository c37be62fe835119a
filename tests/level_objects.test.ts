// Tiled object layers into the rectangle and polyhedron stores: rectangles land in a RectLevel
// and as polyhedra, polygons split into convex polyhedra, all where Tiled shows them (y-down, no
// flip), and a bad object rejects the whole call with both stores unchanged.
import { describe, expect, it } from "vitest";
import { addLevelObjects, HitcoreError, parseTiledMap } from "../bindings/node.js";
import { BACKENDS, backendOptions, newRectLevel, newPlatforms } from "./support.js";


const T = 16;
/** A 10 x 6 map (160 x 96 px, y-down in Tiled) with a crate, a floor and an L-shaped (non-convex) rock. */
function objectMap(rock: { x: number; y: number }[]): Record<string, unknown> {
  return {
    type: "map", orientation: "orthogonal", infinite: false, width: 10, height: 6, tilewidth: T, tileheight: T,
    tilesets: [{ firstgid: 1, name: "tiles", tilecount: 1, tiles: [{ id: 0, properties: [{ name: "platform", type: "bool", value: true }] }] }],
    layers: [
      { type: "tilelayer", name: "ground", width: 10, height: 6, data: new Array(60).fill(0) },
      { type: "objectgroup", name: "solids", objects: [
        { id: 1, name: "crate", x: 20, y: 10, width: 12, height: 8 },
        { id: 2, name: "floor", x: 0, y: 80, width: 160, height: 16 },
        { id: 3, name: "rock", x: 100, y: 60, polygon: rock },
      ] },
    ],
  };
}
// Tiled polygon points are relative to the object and y-down: an L of 40 x 40 with a 20 x 20 notch.
const L_ROCK = [{ x: 0, y: 0 }, { x: 40, y: 0 }, { x: 40, y: -20 }, { x: 20, y: -20 }, { x: 20, y: -40 }, { x: 0, y: -40 }];

describe.each(BACKENDS)("Tiled objects into the stores (%s)", (backend) => {
  it("puts rectangles into a RectLevel where Tiled shows them, where queries and casts find them", async () => {
    const map = parseTiledMap(objectMap(L_ROCK));
    const level = await newRectLevel({ ...(await backendOptions(backend)) });
    const loaded = addLevelObjects(map, { rects: level });
    expect(level.storedRects).toBe(2); // one prefab per distinct size
    expect(level.instanceCount).toBe(2);
    // Tiled's crate (x 20, y 10 from the top, 12 x 8) is at y 10..18 in the y-down level.
    const box = level.worldRect(loaded.instances[0], 0, new Float64Array(4));
    expect(Array.from(box)).toEqual([20, 10, 32, 18]);
    expect(level.queryBox(24, 12, 26, 14)).toBe(1);
    expect(level.results[0]).toBe(level.indexOf(loaded.instances[0]));
    expect(level.queryBox(40, 30, 60, 40)).toBe(0);
    expect(level.queryBox(40, 85, 60, 90)).toBe(1);
    expect(level.results[0]).toBe(level.indexOf(loaded.instances[1]));
    // A ray dropped from above the crate meets its top at y = 10.
    expect(level.castRay(26, 0, 0, 1, 100)).toBe(true);
    expect(level.hit.distance).toBeCloseTo(10, 9);
    expect(level.hit.ny).toBe(-1);
  });

  it("puts polygons (split into convex parts) and rectangles into Platforms as polyhedra", async () => {
    const map = parseTiledMap(objectMap(L_ROCK));
    const platforms = await newPlatforms({ ...(await backendOptions(backend)) });
    const loaded = addLevelObjects(map, { platforms });
    expect(loaded.polygonParts.length).toBe(1);
    expect(loaded.polygonParts[0].length).toBeGreaterThanOrEqual(2); // the L is not convex
    expect(loaded.rectPolyhedra.length).toBe(2);
    // Tiled's pixels, y-down: the rock's corner is at (100, 60) and it spans up to y 20.
    expect(platforms.polyhedraAt(110, 50)).toBeGreaterThan(0); // in the L's lower-left square
    expect(platforms.polyhedraAt(130, 30)).toBe(0); // in the notch
    expect(platforms.polyhedraAt(26, 14)).toBeGreaterThan(0); // in the crate (y 10..18)
    expect(platforms.polyhedraAt(80, 88)).toBeGreaterThan(0); // in the floor
    expect(platforms.polyhedraAt(80, 56)).toBe(0); // open air
  });

  it("rejects a degenerate polygon before adding anything, leaving both stores unchanged", async () => {
    // A bow tie: its edges cross, which the parser passes on and the polyhedron store refuses.
    const map = parseTiledMap(objectMap([{ x: 0, y: 0 }, { x: 40, y: -40 }, { x: 40, y: 0 }, { x: 0, y: -30 }]));
    const level = await newRectLevel({ ...(await backendOptions(backend)) });
    const platforms = await newPlatforms({ ...(await backendOptions(backend)) });
    let error: unknown;
    try {
      addLevelObjects(map, { rects: level, platforms });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HitcoreError);
    expect((error as Error).message).toMatch(/polygon object 0/);
    expect(level.storedRects).toBe(0);
    expect(level.prefabCount).toBe(0);
    expect(platforms.polyhedronCount).toBe(0);
    // Bad rectangles handed over directly are refused the same way.
    const bad = { rects: new Float32Array([0, 0, 10, -1]), polygons: [] };
    expect(() => addLevelObjects(bad, { rects: level, platforms })).toThrow(/rectangle 0 has size -1/);
    expect(level.storedRects).toBe(0);
    expect(platforms.polyhedronCount).toBe(0);
  });

  it("puts each rectangle at the same place in a RectLevel and in Platforms: both y-down, nothing flipped", async () => {
    const map = parseTiledMap(objectMap(L_ROCK));
    const level = await newRectLevel({ ...(await backendOptions(backend)) });
    const platforms = await newPlatforms({ ...(await backendOptions(backend)) });
    const loaded = addLevelObjects(map, { rects: level, platforms, rectsAsPolyhedra: true });
    expect(loaded.rectPolyhedra.length).toBe(2);
    // Inside and just outside each rectangle's edges, both stores answer alike.
    for (let r = 0; r < map.rects.length; r += 4) {
      const [x, y, w, h] = map.rects.subarray(r, r + 4);
      for (const [px, py, inside] of [[x + w / 2, y + 0.5, true], [x + w / 2, y + h - 0.5, true], [x + w / 2, y - 0.5, false], [x + w / 2, y + h + 0.5, false]] as const) {
        expect(level.queryBox(px, py, px, py) > 0).toBe(inside);
        expect(platforms.polyhedraAt(px, py) > 0).toBe(inside);
      }
    }
  });
});
