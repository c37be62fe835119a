// Tiled polylines become surfaces: one per segment (zero-length segments skipped) at the points plus
// the object's position and its layers' offsets, where balls, moveBodies and casts meet them; the
// report maps Tiled object ids to the handles made from them; a bad polyline refuses the whole
// load, naming the object, with the world left as it was.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addLevelObjects, IdKind, parseTiledMap, Part, Response, type World } from "../bindings/node.js";
import { MAX_POLYLINE_POINTS } from "../bindings/tiled.js";
import { loadTiledMapSync } from "../bindings/tiled_load.js";
import { BACKENDS, newPlatforms, newWorld, backendOptions, refusal } from "./support.js";

const T = 16;
// The object layer sits in a group: offsets add up to (16 + 8, 32 - 4) = (24, 28).
const OX = 24, OY = 28;
type Point = { x: number; y: number };

/** A 20 x 12 map of 16-pixel tiles, no solid cells, with these objects in a group's object layer. */
function polylineMap(objects: Record<string, unknown>[]): Record<string, unknown> {
  return {
    type: "map", orientation: "orthogonal", infinite: false, width: 20, height: 12, tilewidth: T, tileheight: T,
    tilesets: [{ firstgid: 1, name: "tiles", tilecount: 1, tiles: [{ id: 0, properties: [{ name: "platform", type: "bool", value: true }] }] }],
    layers: [
      { type: "tilelayer", name: "ground", width: 20, height: 12, data: new Array(240).fill(0) },
      { type: "group", name: "level", offsetx: 16, offsety: 32, layers: [
        { type: "objectgroup", name: "rails", offsetx: 8, offsety: -4, objects },
      ] },
    ],
  };
}

const pts = (...xy: number[]): Point[] => xy.reduce<Point[]>((out, v, k) => (k % 2 ? out : [...out, { x: v, y: xy[k + 1] }]), []);

/** A floor (a zero-length segment in the middle), a ledge, and a crate (a rectangle object). */
const LEVEL = [
  { id: 5, name: "floor", x: 10, y: 100, polyline: pts(0, 0, 100, 0, 100, 0, 160, -20) },
  { id: 9, name: "ledge", x: 200, y: 40, polyline: pts(0, 0, 60, 0) },
  { id: 3, name: "crate", x: 40, y: 20, width: 10, height: 10 },
];
// The segments where they land: points + (x, y) + (OX, OY); the floor's repeated point gives no segment.
const FLOOR = [[34, 128, 134, 128], [134, 128, 194, 108]];
const LEDGE = [[224, 68, 284, 68]];

/** The ends (x0, y0, x1, y1) of a surface as stored. */
function ends(world: World, handle: number): number[] {
  return Array.from(world.platforms!.surface(handle).slice(9, 13));
}

describe("Tiled polylines", () => {
  it("parse into points in the map's frame, object position and layer offsets added, in the order drawn", () => {
    const map = parseTiledMap(polylineMap(LEVEL));
    expect(map.polylines.map((p) => [p.id, p.name, p.layer])).toEqual([[5, "floor", "rails"], [9, "ledge", "rails"]]);
    expect(Array.from(map.polylines[0].points)).toEqual([34, 128, 134, 128, 134, 128, 194, 108]);
    expect(Array.from(map.polylines[1].points)).toEqual([224, 68, 284, 68]);
    expect(map.rects.length).toBe(4);
    // A rotated polyline turns about its object's (x, y), clockwise on Tiled's y-down screen.
    const turned = parseTiledMap(polylineMap([{ id: 1, x: 100, y: 100, rotation: 90, polyline: pts(0, 0, 20, 0) }]));
    expect(Array.from(turned.polylines[0].points).map((v) => Math.round(v))).toEqual([100 + OX, 100 + OY, 100 + OX, 120 + OY]);
  });

  for (const backend of BACKENDS) {
    it(`load into surfaces at their points, where balls, bullets and casts meet them (${backend})`, async () => {
      const world = await newWorld(backend);
      const loaded = world.loadLevel({ tiled: polylineMap(LEVEL) });
      const plat = loaded.platforms;
      expect(loaded.polylineSurfaces.map((s) => s.length)).toEqual([2, 1]); // the zero-length segment skipped
      expect(plat.surfaceCount).toBe(3);
      expect(loaded.polylineSurfaces[0].map((h) => ends(world, h))).toEqual(FLOOR);
      expect(loaded.polylineSurfaces[1].map((h) => ends(world, h))).toEqual(LEDGE);
      // What came from where, by Tiled object id: surfaces, and the crate's instance.
      expect(loaded.byObjectId.get(5)).toEqual(loaded.polylineSurfaces[0]);
      expect(loaded.byObjectId.get(9)).toEqual(loaded.polylineSurfaces[1]);
      expect(loaded.byObjectId.get(3)).toEqual(loaded.instances);
      expect([...loaded.byObjectId.keys()].sort((a, b) => a - b)).toEqual([3, 5, 9]);
      for (const h of loaded.polylineSurfaces.flat()) expect(plat.idAt(IdKind.Surface, plat.indexOf(h))).toBe(h);

      // A ball dropped onto the floor (drawn left to right: it faces up) comes to rest on it.
      const ball = plat.indexOf(plat.addBall(84, 100, 5));
      for (let f = 0; f < 240; f++) plat.step(1 / 60);
      expect(plat.y[ball]).toBeLessThanOrEqual(128 - 5 + 1e-3);
      expect(plat.y[ball]).toBeGreaterThan(128 - 5 - 1);

      // A bullet falling onto the ledge stops on it, and its hit names the ledge's surface.
      const slot = world.indexOf(world.addCircle(250, 20, 2, 1));
      world.vy[slot] = 200;
      expect(world.moveBodies(1, Response.Stop)).toBe(1);
      expect(world.hitPart[slot]).toBe(Part.Surfaces);
      expect(plat.idAt(IdKind.Surface, world.hitShape[slot])).toBe(loaded.byObjectId.get(9)![0]);
      expect(world.y[slot]).toBeLessThanOrEqual(68 - 2);
      expect(world.y[slot]).toBeGreaterThan(68 - 2 - 0.1);

      // A cast down onto the floor's slope meets it between its ends.
      expect(world.castSegment(164, 0, 0, 200)).toBe(true);
      expect([world.hit.part, plat.idAt(IdKind.Surface, world.hit.shape)]).toEqual([Part.Surfaces, loaded.polylineSurfaces[0][1]]);
      expect(world.hit.y).toBeCloseTo(118, 4);
      // From below, one-sided: no hit from the floor.
      expect(world.castSegment(60, 180, 0, -100)).toBe(false);
    });
  }

  it("the tower TMX fixture's rail becomes a surface", async () => {
    const fixture = (name: string) => readFileSync(new URL(`../fixtures/tiled/${name}`, import.meta.url), "utf8");
    const map = loadTiledMapSync(fixture("tower.tmx"), { resolve: fixture, path: "tower.tmx" });
    expect(map.polylines.map((p) => [p.id, p.name, Array.from(p.points)])).toEqual([[8, "rail", [18, 6, 38, 6]]]);
    const world = await newWorld("js");
    const loaded = world.loadLevel({ tiled: map });
    expect(loaded.byObjectId.get(8)!.map((h) => ends(world, h))).toEqual([[18, 6, 38, 6]]);
  });

  describe("refuse a bad polyline, naming the object, and leave the world as it was", () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ["a NaN point", { id: 11, x: 0, y: 0, polyline: pts(0, 0, NaN, 5) }, /objects\[1\]\.polyline\[1\].*finite/],
      ["an infinite point", { id: 11, x: 0, y: 0, polyline: pts(0, 0, 5, Infinity) }, /objects\[1\]\.polyline\[1\].*finite/],
      ["a huge point", { id: 11, x: 0, y: 0, polyline: pts(0, 0, 1e31, 5) }, /objects\[1\]\.polyline\[1\].*largest coordinate/],
      ["a huge object position", { id: 11, x: -2e30, y: 0, polyline: pts(0, 0, 5, 5) }, /objects\[1\]\.polyline\[0\].*largest coordinate/],
      ["one point", { id: 11, x: 0, y: 0, polyline: pts(3, 3) }, /objects\[1\]\.polyline has 1 point; a polyline needs at least 2/],
      ["no points", { id: 11, x: 0, y: 0, polyline: [] }, /objects\[1\]\.polyline has 0 points/],
      ["not an array", { id: 11, x: 0, y: 0, polyline: "0,0 5,5" }, /objects\[1\]\.polyline must be an array/],
      ["a point that is not {x, y}", { id: 11, x: 0, y: 0, polyline: [{ x: 0, y: 0 }, 7] }, /objects\[1\]\.polyline\[1\] must be \{x, y\}/],
      ["10^6 points", { id: 11, x: 0, y: 0, polyline: Array.from({ length: 1e6 }, (_, k) => ({ x: k % 1000, y: Math.floor(k / 1000) })) },
        new RegExp(`objects\\[1\\]\\.polyline has 1000000 points; a polyline may have ${MAX_POLYLINE_POINTS}`)],
    ];
    for (const [what, object, message] of bad) {
      it(what, async () => {
        const world = await newWorld("wasm-scalar");
        world.addCircle(1, 2, 3);
        const before = world.snapshot();
        const e = refusal(() => world.loadLevel({ tiled: polylineMap([LEVEL[0], object, LEVEL[1]]) }));
        expect(e.code).toBe("MALFORMED_MAP");
        expect(e.message).toMatch(message);
        expect([world.tileMap, world.rectLevel, world.platforms]).toEqual([null, null, null]);
        expect(Buffer.from(world.snapshot()).equals(Buffer.from(before))).toBe(true);
        // The same world loads a good level afterwards.
        expect(world.loadLevel({ tiled: polylineMap(LEVEL) }).platforms.surfaceCount).toBe(3);
      });
    }
  });

  it("addLevelObjects refuses bad polylines handed over directly, before adding anything; without platforms they are left out", async () => {
    for (const backend of BACKENDS) {
      const platforms = await newPlatforms({ ...(await backendOptions(backend)) });
      const good = { points: Float32Array.of(0, 0, 10, 0), id: 1 };
      for (const points of [Float32Array.of(0, 0), Float32Array.of(0, 0, 5), Float32Array.of(0, 0, NaN, 1), [0, 0, 2e30, 1] as unknown as Float32Array]) {
        const e = refusal(() => addLevelObjects({ rects: new Float32Array(0), polygons: [{ vertices: Float32Array.of(0, 0, 9, 0, 9, 9) }], polylines: [good, { points, id: 2 }] }, { platforms }));
        expect(e.code).toBe("INVALID_OBJECTS");
        expect(e.message).toMatch(/polyline object 1 \(Tiled id 2\)/);
        expect([platforms.surfaceCount, platforms.polyhedronCount]).toEqual([0, 0]);
      }
      const loaded = addLevelObjects({ rects: new Float32Array(0), polygons: [], polylines: [good, { points: Float32Array.of(5, 5, 5, 5) }] }, { platforms });
      expect(loaded.polylineSurfaces.map((s) => s.length)).toEqual([1, 0]); // a line of one repeated point makes nothing
      expect([...loaded.byObjectId.keys()]).toEqual([1]);
      const rects = (await newWorld(backend)).addRectLevel();
      expect(addLevelObjects({ rects: new Float32Array(0), polygons: [], polylines: [good] }, { rects }).polylineSurfaces).toEqual([]);
    }
  });
});
