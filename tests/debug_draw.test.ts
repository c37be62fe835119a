// debugDraw: the command stream of small hand-built worlds of every part holds exactly the
// primitives their state implies (each expectation is worked out here from the part's own public
// state or the tutorial's geometry, not from a dump), the canvas target issues the same primitives
// as the stream, and neither allocates per frame once warmed up.
import { describe, expect, it } from "vitest";
import {
  ALL_LAYERS, CharacterKind, ContactType, ControllerKind, DEFAULT_COLOURS, DEFAULT_GROUP_COLOURS, DRAW_HEADER, debugDraw,
  DrawLayer, DrawOp, DrawStream, drawStream, IdKind, Kind, Mirror, Part, seedCollisionPoints, Sweep, TileCell, TileHit, type DebugCanvas, type World,
} from "../bindings/node.js";
import { everyPart, newWorld, refusal } from "./support.js";

interface Prim { op: number; layer: number; colour: number; args: number[] }

/** The stream's records, parsed by the documented format. */
function records(s: DrawStream): Prim[] {
  const out: Prim[] = [], d = s.data;
  for (let at = 0; at < s.length;) {
    const op = d[at], p = at + DRAW_HEADER;
    const n = op === DrawOp.Line || op === DrawOp.Rect || op === DrawOp.FillRect ? 4 : op === DrawOp.Circle || op === DrawOp.FillCircle ? 3
      : op === DrawOp.Point ? 2 : 1 + 2 * d[p];
    expect(n, `op ${op} at ${at}`).toBeGreaterThan(0);
    out.push({ op, layer: d[at + 1], colour: d[at + 2], args: Array.from(d.subarray(p, p + n)) });
    at = p + n;
  }
  expect(out.length).toBe(s.count);
  return out;
}

/** The records of one layer. */
function layer(world: World, which: number, options: Parameters<typeof debugDraw>[2] = {}): Prim[] {
  const s = new DrawStream();
  const n = debugDraw(world, s, { ...options, layers: 1 << which });
  const r = records(s);
  expect(n).toBe(r.length);
  for (const p of r) expect(p.layer).toBe(which);
  return r;
}

const f = Math.fround;
/** Rounds expected numbers as the f32 stream stores them. */
const prim = (op: number, colour: number, ...args: number[]) => ({ op, colour, args: args.map(f) });
const key = (p: { op: number; colour: number; args: number[] }) => `${p.op}|${p.colour}|${p.args.map((v) => v.toFixed(2)).join(",")}`;
/** Same primitives, in any order. */
function sameSet(got: Prim[], want: { op: number; colour: number; args: number[] }[]): void {
  expect(got.map(key).sort()).toEqual(want.map(key).sort());
}

describe("debugDraw: the stream of each part", () => {
  it("bodies: a point, circle or rect per live body, in the colour of its lowest group bit; mask and view cull", async () => {
    const world = await newWorld("wasm-scalar");
    world.addPoint(5, 6, 1);
    const c = world.addCircle(40, 50, 7, 2 | 8);
    world.addRect(100, 120, 30, 10, 4);
    const gone = world.addCircle(0, 0, 3, 1);
    world.addRect(-500, -500, 10, 10, 16);
    world.remove(gone);
    const x = world.x, y = world.y, a = world.a, b = world.b, kinds = world.kinds, groups = world.groups;
    const want = [];
    for (let s = 0; s < world.count; s++) {
      if (kinds[s] === Kind.None) continue;
      const colour = DEFAULT_GROUP_COLOURS[Math.log2(groups[s] & -groups[s])];
      if (kinds[s] === Kind.Point) want.push(prim(DrawOp.Point, colour, x[s], y[s]));
      if (kinds[s] === Kind.Circle) want.push(prim(DrawOp.Circle, colour, x[s], y[s], a[s]));
      if (kinds[s] === Kind.Rect) want.push(prim(DrawOp.Rect, colour, x[s], y[s], a[s], b[s]));
    }
    expect(want.length).toBe(4);
    sameSet(layer(world, DrawLayer.Bodies), want);
    // The circle is in groups 2 | 8: colour of bit 1; mask 8 keeps only it; a view box culls the far rect.
    expect(layer(world, DrawLayer.Bodies, { mask: 8 }).map((p) => p.args)).toEqual([[40, 50, 7]]);
    expect(layer(world, DrawLayer.Bodies, { mask: 8 })[0].colour).toBe(DEFAULT_GROUP_COLOURS[1]);
    expect(layer(world, DrawLayer.Bodies, { view: { x: -100, y: -100, width: 1000, height: 1000 } })).toHaveLength(3);
    expect(layer(world, DrawLayer.Bodies, { groupColours: [0x123456] }).every((p) => p.colour === 0x123456)).toBe(true);
    world.setPosition(c, 41, 50);
    expect(layer(world, DrawLayer.Bodies, { mask: 8 })[0].args).toEqual([41, 50, 7]);
  });

  it("grid: the frame of the last pair query's grid and exactly the cells its small bodies' homes are in", async () => {
    const world = await newWorld("wasm-scalar", { cellSize: 32 });
    const centres = [[10, 10], [12, 14], [100, 40], [70, 130], [200, 200], [33, 90]];
    for (const [x, y] of centres) world.addCircle(x, y, 4, 1);
    world.selfPairs();
    const st = world.stats();
    expect(st.split).toBe(false);
    expect(st.large).toBe(0);
    const cs = st.cellSize;
    const homes = new Set(centres.map(([x, y]) => `${Math.floor((x - 4 - st.originX) / cs)},${Math.floor((y - 4 - st.originY) / cs)}`));
    const want = [prim(DrawOp.Rect, DEFAULT_COLOURS.grid, st.originX, st.originY, st.cols * cs, st.rows * cs)];
    for (const h of homes) {
      const [c, r] = h.split(",").map(Number);
      want.push(prim(DrawOp.FillRect, DEFAULT_COLOURS.gridCell, st.originX + c * cs, st.originY + r * cs, cs, cs));
    }
    expect(want.length).toBe(6); // two circles share a cell
    sameSet(layer(world, DrawLayer.Grid), want);
  });

  it("tiles: each cell by kind (solid fill, one-way top edge, ladder rails, spike, coin) and the live monsters", async () => {
    const world = await newWorld("js");
    const map = world.addTileMap({ ascii: ["X -H", "o^ 1", "XXXX"], tileSize: 16 });
    const T = 16, cells = map.cells, want = [];
    for (let r = 0; r < map.rows; r++) {
      for (let c = 0; c < map.cols; c++) {
        const v = cells[r * map.cols + c], x = c * T, y = r * T;
        if (v & TileCell.Platform) want.push(prim(DrawOp.FillRect, DEFAULT_COLOURS.solid, x, y, T, T));
        if (v & TileCell.OneWay) want.push(prim(DrawOp.Line, DEFAULT_COLOURS.oneWay, x, y, x + T, y));
        if (v & TileCell.Ladder) want.push(prim(DrawOp.Rect, DEFAULT_COLOURS.ladder, x + T / 4, y, T / 2, T));
        if (v & TileCell.Spike) want.push(prim(DrawOp.FillPolygon, DEFAULT_COLOURS.spike, 3, x, y + T, x + T / 2, y, x + T, y + T));
        if (v & TileCell.Coin) want.push(prim(DrawOp.FillCircle, DEFAULT_COLOURS.coin, x + T / 2, y + T / 2, T / 4));
      }
    }
    const mb = map.monsterBoxes;
    expect(map.monsterCount).toBe(1);
    want.push(prim(DrawOp.Rect, DEFAULT_COLOURS.monster, mb[0], mb[1], mb[2], mb[3]));
    expect(want.length).toBe(10);
    sameSet(layer(world, DrawLayer.Tiles), want);
    map.removeMonster(map.idAt(IdKind.Monster, 0));
    expect(layer(world, DrawLayer.Tiles)).toHaveLength(9);
    // A view box over the top row only.
    expect(layer(world, DrawLayer.Tiles, { view: { x: 0, y: 0, width: 64, height: 8 } })).toHaveLength(3);
  });

  it("rect level: prefab rects through worldRect, master boxes through instanceBox, the quadtree's non-empty nodes", async () => {
    const world = await newWorld("wasm-scalar");
    const level = world.addRectLevel();
    const stairs = level.addPrefab([0, 84, 128, 12, 16, 72, 112, 24]);
    const block = level.addPrefab([0, 0, 40, 40]);
    const ids = [level.addInstance(stairs, 400, 464), level.addInstance(stairs, 528, 464, Mirror.X | Mirror.Y), level.addInstance(block, 0, 0)];
    for (let k = 0; k < 5; k++) ids.push(level.addInstance(block, 100 * k, 900));
    const rects = [], boxes = [], out = new Float64Array(4);
    for (const id of ids) {
      for (let k = 0; k < level.instanceRectCount(id); k++) {
        level.worldRect(id, k, out);
        rects.push(prim(DrawOp.FillRect, DEFAULT_COLOURS.rect, out[0], out[1], out[2] - out[0], out[3] - out[1]));
      }
      level.instanceBox(id, out);
      boxes.push(prim(DrawOp.Rect, DEFAULT_COLOURS.masterBox, out[0], out[1], out[2] - out[0], out[3] - out[1]));
    }
    sameSet(layer(world, DrawLayer.Rects), rects);
    sameSet(layer(world, DrawLayer.MasterBoxes), boxes);
    const nodes = [], nb = level.nodeBoxes, counts = level.nodeCounts;
    for (let k = 0; k < level.nodeCount; k++) {
      if (counts[k] > 0) nodes.push(prim(DrawOp.Rect, DEFAULT_COLOURS.quadtree, nb[4 * k], nb[4 * k + 1], nb[4 * k + 2] - nb[4 * k], nb[4 * k + 3] - nb[4 * k + 1]));
    }
    expect(level.depth).toBeGreaterThan(0);
    expect(nodes.length).toBeLessThan(level.nodeCount); // empty nodes are left out
    sameSet(layer(world, DrawLayer.Quadtree), nodes);
    expect(refusal(() => level.worldRectAt(ids.length, 0, out)).code).toBe("INVALID_ARGUMENT");
    expect(refusal(() => level.worldRectAt(0, 2, out)).code).toBe("UNKNOWN_RECT");
  });

  it("characters and their four sensors, as the four-sensor tutorial places them", async () => {
    const world = await newWorld("wasm-scalar");
    const level = world.addRectLevel();
    level.addPrefab([0, 0, 10, 10]);
    const hero = level.addCharacter(100, 200, 20, 40);
    level.addCharacter(300, 200, 22, 36, CharacterKind.Enemy);
    const gone = level.addCharacter(0, 0, 20, 40);
    level.removeCharacter(gone);
    const cfg = level.characterConfig, want = [], sensors = [];
    for (let c = 0; c < level.characterCount; c++) {
      const kind = level.charKind[c];
      if (kind === CharacterKind.None) continue;
      const x = level.charX[c], y = level.charY[c], w = level.charW[c], h = level.charH[c];
      want.push(prim(DrawOp.Rect, kind === CharacterKind.Player ? DEFAULT_COLOURS.player : DEFAULT_COLOURS.enemy, x, y, w, h));
      sensors.push(prim(DrawOp.Rect, DEFAULT_COLOURS.sensorTop, x + cfg.inset, y, w - 2 * cfg.inset, cfg.sensorTop));
      sensors.push(prim(DrawOp.Rect, DEFAULT_COLOURS.sensorBottom, x + cfg.inset, y + h - cfg.sensorBottom, w - 2 * cfg.inset, cfg.sensorBottom));
      sensors.push(prim(DrawOp.Rect, DEFAULT_COLOURS.sensorLeft, x, y + cfg.sensorTop, w / 2, h - cfg.sensorTop - cfg.stepHeight));
      sensors.push(prim(DrawOp.Rect, DEFAULT_COLOURS.sensorRight, x + w / 2, y + cfg.sensorTop, w / 2, h - cfg.sensorTop - cfg.stepHeight));
    }
    expect(want.length).toBe(2);
    sameSet(layer(world, DrawLayer.Characters), want);
    sameSet(layer(world, DrawLayer.Sensors), sensors);
    level.placeCharacter(hero, 150, 210);
    expect(layer(world, DrawLayer.Characters).some((p) => p.args[0] === 150 && p.args[1] === 210)).toBe(true);
  });

  it("surfaces, their trapezium hit regions (rounded with exact), polyhedra and their regions, balls", async () => {
    const world = await newWorld("wasm-scalar");
    const R = 10;
    const plat = world.addPlatforms({ maxRadius: R });
    const lines = [-400, 0, -300, 200, 0, 300, 200, 300];
    plat.addSurfaces(lines);
    const [square] = plat.addPolygon([500, 0, 600, 0, 600, 100, 500, 100]);
    plat.addHalfspaces([0, -1, -1000]); // the ground y >= 1000
    plat.addBall(50, 60, 8);
    plat.addBall(70, 60, 5);
    const surf = [], regions = [];
    for (let i = 0; i < lines.length; i += 4) {
      const [x0, y0, x1, y1] = lines.slice(i, i + 4), len = Math.hypot(x1 - x0, y1 - y0), tx = (x1 - x0) / len, ty = (y1 - y0) / len;
      const nx = ty, ny = -tx; // the left of p0 -> p1 as drawn, y down
      const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
      surf.push(prim(DrawOp.Line, DEFAULT_COLOURS.surface, x0, y0, x1, y1), prim(DrawOp.Line, DEFAULT_COLOURS.surface, mx, my, mx + 8 * nx, my + 8 * ny));
      regions.push(prim(DrawOp.Polygon, DEFAULT_COLOURS.hitRegion, 4, x0 - R * tx, y0 - R * ty, x1 + R * tx, y1 + R * ty, x1 + R * nx, y1 + R * ny, x0 + R * nx, y0 + R * ny));
    }
    sameSet(layer(world, DrawLayer.Surfaces), surf);
    // The square's region: its faces moved out by R, mitred corners at (500 - R, -R) ... (600 + R, 100 + R).
    regions.push(prim(DrawOp.Polygon, DEFAULT_COLOURS.hitRegion, 4, 500 - R, -R, 500 - R, 100 + R, 600 + R, 100 + R, 600 + R, -R));
    const view = { x: -500, y: -100, width: 1200, height: 1200 };
    const got = layer(world, DrawLayer.HitRegions, { view });
    // The ground's region is the view's bottom below y = 1000 - R, in some corner order.
    const ground = got.filter((p) => p.args[0] === 4 && p.args.slice(1).some((v) => v === 1100));
    expect(ground).toHaveLength(1);
    const corners = (p: Prim) => p.args.slice(1).reduce<string[]>((a, v, i, all) => (i % 2 ? a : [...a, `${all[i]},${all[i + 1]}`]), []).sort();
    expect(corners(ground[0])).toEqual(["-500,1100", "-500,990", "700,1100", "700,990"]);
    // Polygons may start at any corner: compare corner sets.
    const norm = (p: { op: number; colour: number; args: number[] }) => `${p.op}|${p.colour}|${corners(p as Prim).map((c) => c.split(",").map((v) => Number(v).toFixed(2)).join(",")).join(";")}`;
    expect(got.filter((p) => p !== ground[0]).map(norm).sort()).toEqual(regions.map(norm).sort());
    const poly = layer(world, DrawLayer.Polyhedra, { view });
    expect(poly.map(norm).sort()).toEqual([
      norm(prim(DrawOp.FillPolygon, DEFAULT_COLOURS.polyhedron, 4, ...plat.vertices(square)!)),
      norm(prim(DrawOp.FillPolygon, DEFAULT_COLOURS.polyhedron, 4, -500, 1000, 700, 1000, 700, 1100, -500, 1100)),
    ].sort());
    // Exact regions: every corner of the outline lies on the segment or R from it, and they reach R past both ends.
    plat.exact = true;
    const exact = layer(world, DrawLayer.HitRegions, { view }).slice(0, 2);
    for (let s = 0; s < 2; s++) {
      const [x0, y0, x1, y1] = lines.slice(4 * s, 4 * s + 4), ex = x1 - x0, ey = y1 - y0;
      const pts = exact[s].args.slice(1);
      expect(exact[s].args[0]).toBeGreaterThan(8);
      for (let i = 0; i < pts.length; i += 2) {
        const t = Math.min(1, Math.max(0, ((pts[i] - x0) * ex + (pts[i + 1] - y0) * ey) / (ex * ex + ey * ey)));
        const d = Math.hypot(pts[i] - x0 - t * ex, pts[i + 1] - y0 - t * ey);
        expect(d < 1e-3 || Math.abs(d - R) < 1e-3, `corner ${i / 2} at distance ${d}`).toBe(true);
      }
    }
    const balls = [];
    for (let k = 0; k < plat.ballCount; k++) balls.push(prim(DrawOp.Circle, DEFAULT_COLOURS.ball, plat.x[k], plat.y[k], plat.radius[k]));
    sameSet(layer(world, DrawLayer.Balls), balls);
    // A radius of 0 shrinks the rounded band onto the segment.
    const flat = layer(world, DrawLayer.HitRegions, { view, hitRadius: 0 })[0].args;
    expect(flat[0]).toBe(exact[0].args[0]);
    for (let i = 1; i < flat.length; i += 2) expect(Math.abs((flat[i] + 400) * 200 - (flat[i + 1] - 0) * 100)).toBeLessThan(1e-2); // on the line through (-400, 0) and (-300, 200)
  });

  it("tile controllers: each box (origin at the middle of its feet) and its collision points", async () => {
    const world = await newWorld("wasm-scalar");
    const map = world.addTileMap({ ascii: ["    ", "    ", "XXXX"], tileSize: 32, controller: { width: 20, height: 50 } });
    const offsets = [-5, -50, 5, -50, 0, 1];
    map.setPoints(offsets);
    const a = map.addController(40, 64), b = map.addController(90, 60);
    const boxes = [], points = [];
    for (const c of [a, b]) {
      const { x, y } = map.controller(c);
      boxes.push(prim(DrawOp.Rect, DEFAULT_COLOURS.tileController, x - 10, y - 50, 20, 50));
      for (let i = 0; i < offsets.length; i += 2) points.push(prim(DrawOp.Point, DEFAULT_COLOURS.collisionPoint, x + offsets[i], y + offsets[i + 1]));
    }
    sameSet(layer(world, DrawLayer.TileControllers), boxes);
    sameSet(layer(world, DrawLayer.CollisionPoints), points);
  });

  it("point hits: each point of the last collidePoints, in the colour of the first thing it hit (monster, spike, coin, solid, ladder)", async () => {
    const world = await everyPart();
    const map = world.tileMap!, np = map.pointsPerEntity, hits = map.pointHits, offsets = map.pointOffsets;
    const order: [number, number][] = [[TileHit.Monster, DEFAULT_COLOURS.pointMonster], [TileHit.Spike, DEFAULT_COLOURS.pointSpike], [TileHit.Coin, DEFAULT_COLOURS.pointCoin],
      [TileHit.Blocked | TileHit.OneWay, DEFAULT_COLOURS.pointBlocked], [TileHit.Ladder, DEFAULT_COLOURS.pointLadder]];
    const want = [];
    for (let e = 0; e < map.lastCollidePoints; e++) {
      for (let p = 0; p < np; p++) {
        const h = hits[e * np + p], colour = order.find(([bits]) => (h & bits) !== 0)?.[1] ?? DEFAULT_COLOURS.pointFree;
        want.push(prim(DrawOp.Point, colour, map.entityX[e] + offsets[2 * p], map.entityY[e] + offsets[2 * p + 1]));
      }
    }
    expect(want).toHaveLength(4 * np);
    expect(new Set(want.map((p) => p.colour)).size).toBeGreaterThanOrEqual(5); // the scene reaches most colours
    sameSet(layer(world, DrawLayer.PointHits), want);
    // New offsets make the last output stale: nothing is drawn until the next collidePoints.
    map.setPoints([0, 0]);
    expect(map.lastCollidePoints).toBe(0);
    expect(layer(world, DrawLayer.PointHits)).toEqual([]);
    map.collidePoints(1);
    expect(layer(world, DrawLayer.PointHits).map((p) => p.args)).toEqual([[map.entityX[0], map.entityY[0]]]);
  });

  it("projectiles: each of the last moveProjectiles as a circle (a point at radius 0), where it ended", async () => {
    const world = await everyPart();
    const level = world.rectLevel!, x = level.projX, y = level.projY, r = level.projR, want = [];
    for (let k = 0; k < level.lastProjectiles; k++) {
      want.push(r[k] > 0 ? prim(DrawOp.Circle, DEFAULT_COLOURS.projectile, x[k], y[k], r[k]) : prim(DrawOp.Point, DEFAULT_COLOURS.projectile, x[k], y[k]));
    }
    expect(want.map((p) => p.op)).toEqual([DrawOp.Circle, DrawOp.Point]);
    sameSet(layer(world, DrawLayer.Projectiles), want);
    level.moveProjectiles(1);
    expect(layer(world, DrawLayer.Projectiles)).toHaveLength(1);
    level.moveProjectiles(0);
    expect(layer(world, DrawLayer.Projectiles)).toEqual([]);
  });

  it("fills: the layers in options.fills have their outlines filled, other layers and lines unchanged", async () => {
    const world = await everyPart();
    const outlined: number[] = [DrawOp.Rect, DrawOp.Circle, DrawOp.Polygon], filled: number[] = [DrawOp.FillRect, DrawOp.FillCircle, DrawOp.FillPolygon];
    for (const l of Object.values(DrawLayer)) {
      const plain = layer(world, l), other = layer(world, l, { fills: ALL_LAYERS & ~(1 << l) }), mine = layer(world, l, { fills: 1 << l });
      expect(other).toEqual(plain);
      expect(mine).toHaveLength(plain.length);
      for (let k = 0; k < plain.length; k++) {
        const i = outlined.indexOf(plain[k].op);
        expect(mine[k]).toEqual(i < 0 ? plain[k] : { ...plain[k], op: filled[i] });
      }
    }
    const sensors = layer(world, DrawLayer.Sensors, { fills: 1 << DrawLayer.Sensors });
    expect(sensors.length).toBeGreaterThan(0);
    expect(sensors.every((p) => p.op === DrawOp.FillRect)).toBe(true);
  });

  it("casts: the last single cast's path and shapes with its hit normal, and every cast of the last castMany", async () => {
    const world = await newWorld("wasm-scalar");
    const level = world.addRectLevel();
    level.addInstance(level.addPrefab([0, 0, 100, 20]), 200, 100);
    expect(world.castBox(10, 95, 10, 10, 400, 0)).toBe(true);
    const h = world.hit, T = 8;
    expect(h.part).toBe(Part.Rects);
    sameSet(layer(world, DrawLayer.Casts), [
      prim(DrawOp.Line, DEFAULT_COLOURS.cast, 15, 100, 415, 100),
      prim(DrawOp.Rect, DEFAULT_COLOURS.cast, 10, 95, 10, 10),
      prim(DrawOp.Rect, DEFAULT_COLOURS.hitRects, h.x - 5, h.y - 5, 10, 10),
      prim(DrawOp.Line, DEFAULT_COLOURS.normal, h.x, h.y, h.x + T * h.nx, h.y + T * h.ny),
    ]);
    expect(world.castRay(10, 10, 1, 0, 50)).toBe(false);
    sameSet(layer(world, DrawLayer.Casts), [
      prim(DrawOp.Line, DEFAULT_COLOURS.cast, 10, 10, 60, 10),
      prim(DrawOp.Point, DEFAULT_COLOURS.cast, 10, 10),
      prim(DrawOp.Point, DEFAULT_COLOURS.castMiss, 60, 10),
    ]);
    world.ensureCasts(3);
    world.castInputs.set([250, 50, 0, 200, 4, 0, 120, 0, 0, 40, 4, 0, 250, 300, 0, -300, 4, 0]);
    expect(world.castMany(3, Sweep.Circle)).toBe(2);
    const want = [
      prim(DrawOp.Line, DEFAULT_COLOURS.cast, 10, 10, 60, 10), prim(DrawOp.Point, DEFAULT_COLOURS.cast, 10, 10), prim(DrawOp.Point, DEFAULT_COLOURS.castMiss, 60, 10),
    ];
    const inp = world.castInputs, ints = world.castHitInts, reals = world.castHitReals;
    for (let k = 0; k < 3; k++) {
      const x = inp[6 * k], y = inp[6 * k + 1], t = reals[3 * k], ex = x + t * inp[6 * k + 2], ey = y + t * inp[6 * k + 3];
      want.push(prim(DrawOp.Line, DEFAULT_COLOURS.cast, x, y, ex, ey));
      want.push(prim(DrawOp.Circle, ints[3 * k] === Part.Rects ? DEFAULT_COLOURS.hitRects : DEFAULT_COLOURS.castMiss, ex, ey, 4));
      if (ints[3 * k] !== Part.None) want.push(prim(DrawOp.Line, DEFAULT_COLOURS.normal, ex, ey, ex + T * reals[3 * k + 1], ey + T * reals[3 * k + 2]));
    }
    sameSet(layer(world, DrawLayer.Casts), want);
  });

  it("contacts: a line from each controller to each body it touches, in the colour of the contact's type", async () => {
    const world = await newWorld("wasm-scalar");
    const plat = world.addPlatforms({ maxRadius: 10 });
    plat.addBall(100, 100, 10);
    const level = world.addRectLevel();
    level.addPrefab([0, 0, 1, 1]);
    level.addCharacter(300, 300, 20, 40);
    world.addCircle(105, 100, 3, 1);
    world.addRect(310, 310, 10, 10, 2);
    world.addRect(0, 0, 5, 5, 2);
    const n = world.controllerContacts(3, 2);
    expect(n).toBe(2);
    const rec = world.contacts, want = [];
    for (let k = 0; k < n; k++) {
      const [kind, index, slot, type] = rec.subarray(4 * k, 4 * k + 4);
      const [cx, cy] = kind === ControllerKind.Ball ? [plat.x[index], plat.y[index]] : [level.charX[index] + level.charW[index] / 2, level.charY[index] + level.charH[index] / 2];
      const [bx, by] = world.kinds[slot] === Kind.Rect ? [world.x[slot] + world.a[slot] / 2, world.y[slot] + world.b[slot] / 2] : [world.x[slot], world.y[slot]];
      want.push(prim(DrawOp.Line, type === ContactType.PickUp ? DEFAULT_COLOURS.pickUp : type === ContactType.Hurt ? DEFAULT_COLOURS.hurt : DEFAULT_COLOURS.stomp, cx, cy, bx, by));
    }
    sameSet(layer(world, DrawLayer.Contacts), want);
  });

  it("the read accessors it uses give what the handle methods and stats() give, and refuse bad indices", async () => {
    const world = await everyPart();
    const plat = world.platforms!, level = world.rectLevel!, map = world.tileMap!;
    const rec = new Float64Array(16), faces = new Float64Array(3 * 8), box = new Float64Array(4), out = new Float64Array(4);
    for (let k = 0; k < plat.surfaceCount; k++) {
      expect(Array.from(plat.surfaceAt(k, rec))).toEqual(Array.from(plat.surface(plat.idAt(IdKind.Surface, k))));
    }
    for (let k = 0; k < plat.polyhedronCount; k++) {
      const id = plat.idAt(IdKind.Polyhedron, k), n = plat.halfspacesAt(k, faces);
      expect(n).toBe(plat.faceCountAt(k));
      expect(Array.from(faces.subarray(0, 3 * n))).toEqual(Array.from(plat.halfspaces(id)));
      expect(plat.verticesAt(k)).toEqual(plat.vertices(id));
    }
    for (const bad of [-1, plat.surfaceCount, 0.5]) expect(refusal(() => plat.surfaceAt(bad, rec)).code).toBe("INVALID_ARGUMENT");
    expect(refusal(() => plat.verticesAt(plat.polyhedronCount)).code).toBe("INVALID_ARGUMENT");
    for (let i = 0; i < level.instanceCount; i++) {
      const id = level.idAt(IdKind.Instance, i);
      expect(Array.from(level.instanceBoxes.subarray(4 * i, 4 * i + 4))).toEqual(Array.from(level.instanceBox(id, box)));
      expect(level.rectCountAt(i)).toBe(level.instanceRectCount(id));
      for (let k = 0; k < level.rectCountAt(i); k++) expect(Array.from(level.worldRectAt(i, k, out))).toEqual(Array.from(level.worldRect(id, k, box)));
    }
    expect(refusal(() => level.sensorsInto(level.characterCount, new Float64Array(16))).code).toBe("INVALID_ARGUMENT");
    expect(Array.from(map.pointOffsets.subarray(0, 2 * map.pointsPerEntity))).toEqual(Array.from(seedCollisionPoints(map.controllerWidth, map.controllerHeight, map.tileSize)));
    world.selfPairs(1);
    const st = world.stats(), shape = world.gridShapeInto(new Float64Array(10));
    expect(Array.from(shape.subarray(0, 8))).toEqual([st.cols, st.rows, st.cellSize, st.cellSize, st.originX, st.originY, 1, st.entries]);
    // The cells' records add up to the grid's entries.
    const cells = world.gridCells, ncells = (st.cols + 1) * (st.rows + 1);
    let total = 0;
    for (let c = 0; c < ncells; c++) total += cells[c + 1] - (c === 0 ? 0 : cells[c]);
    expect(total).toBe(st.entries);
    expect(world.controllerContacts(8)).toBe(world.contactCount);
    world.castCircle(1, 2, 3, 4, 5);
    expect(Array.from(world.lastCast)).toEqual([Sweep.Circle, 1, 2, 4, 5, 3, 3]);
    expect(world.lastCastMany).toBe(2);
    world.castInputs[0] = NaN; // a refused castMany changes nothing, the record of the last one included
    expect(refusal(() => world.castMany(1)).code).toBe("INVALID_CAST");
    expect(world.lastCastMany).toBe(2);
    world.castMany(0);
    expect(world.lastCastMany).toBe(0);
  });

  it("draws the layers asked for, in layer order; a stream that may not grow counts what it drops", async () => {
    const world = await everyPart();
    const all = new DrawStream();
    const n = debugDraw(world, all);
    const r = records(all);
    expect(n).toBe(r.length);
    const seen = new Set(r.map((p) => p.layer));
    expect([...seen].sort((a, b) => a - b)).toEqual(Object.values(DrawLayer).sort((a, b) => a - b));
    for (let k = 1; k < r.length; k++) expect(r[k].layer).toBeGreaterThanOrEqual(r[k - 1].layer);
    expect(debugDraw(world, all, { layers: 0 })).toBe(0);
    // Appending: the layers drawn one at a time make the same stream.
    const one = new DrawStream({ capacity: 16 });
    for (const l of Object.values(DrawLayer)) debugDraw(world, one, { layers: 1 << l, clear: false });
    expect(records(one)).toEqual(r);
    const small = new DrawStream({ capacity: 64, grow: false });
    const kept = debugDraw(world, small, { layers: ALL_LAYERS });
    expect(kept).toBeLessThan(n);
    expect(kept + small.dropped).toBe(n);
    expect(records(small)).toEqual(r.slice(0, kept)); // what fits, in order, until the first drop
  });
});

/** A 2D context that records what debugDraw asks of it, as primitives with their style. */
class FakeContext implements DebugCanvas {
  readonly canvas = { width: 800, height: 600 };
  strokeStyle: unknown = "";
  fillStyle: unknown = "";
  lineWidth = 1;
  readonly prims: { op: string; style: string; args: number[] }[] = [];
  private path: { op: string; args: number[] }[] = [];
  private start: number[] = [];
  saves = 0;
  save(): void { this.saves++; }
  restore(): void { this.saves--; }
  beginPath(): void { this.path = []; }
  moveTo(x: number, y: number): void { this.start = [x, y]; this.path.push({ op: "move", args: [x, y] }); }
  lineTo(x: number, y: number): void { this.path.push({ op: "line", args: [x, y] }); }
  rect(x: number, y: number, w: number, h: number): void { this.path.push({ op: "rect", args: [x, y, w, h] }); }
  arc(x: number, y: number, r: number, a0: number, a1: number): void {
    expect([a0, a1]).toEqual([0, 2 * Math.PI]);
    this.path.push({ op: "arc", args: [x, y, r] });
  }
  closePath(): void { this.path.push({ op: "close", args: this.start }); }
  stroke(): void { this.emit(String(this.strokeStyle), "stroke"); }
  fill(): void { this.emit(String(this.fillStyle), "fill"); }
  /** The path as primitives: move+line a line, move+arc a circle, move+lines+close a polygon, rect a rect. */
  private emit(style: string, how: string): void {
    const p = this.path;
    for (let i = 0; i < p.length;) {
      if (p[i].op === "rect") { this.prims.push({ op: `${how} rect`, style, args: p[i].args }); i++; continue; }
      expect(p[i].op).toBe("move");
      if (p[i + 1].op === "arc") { this.prims.push({ op: `${how} circle`, style, args: p[i + 1].args }); i += 2; continue; }
      let j = i + 1;
      const pts = [...p[i].args];
      while (j < p.length && p[j].op === "line") pts.push(...p[j++].args);
      if (j < p.length && p[j].op === "close") { this.prims.push({ op: `${how} polygon`, style, args: [pts.length / 2, ...pts] }); j++; }
      else this.prims.push({ op: `${how} line`, style, args: pts });
      i = j;
    }
  }
}

describe("debugDraw: the canvas target", () => {
  it("issues the stream's primitives through the camera, in order, culled to what the camera shows", async () => {
    const world = await everyPart();
    const camera = { x: 40, y: -20, scale: 1.5 };
    const ctx = new FakeContext();
    const n = debugDraw(world, ctx, { camera });
    expect(ctx.saves).toBe(0);
    const s = new DrawStream();
    expect(debugDraw(world, s, { view: { x: 40, y: -20, width: 800 / 1.5, height: 600 / 1.5 } })).toBe(n);
    const want = records(s).map((p) => {
      const fill = p.op === DrawOp.FillRect || p.op === DrawOp.FillCircle || p.op === DrawOp.FillPolygon || p.op === DrawOp.Point;
      const X = (v: number) => (v - camera.x) * camera.scale, Y = (v: number) => (v - camera.y) * camera.scale;
      const a = p.args;
      const shape = p.op === DrawOp.Line ? "line" : p.op === DrawOp.Rect || p.op === DrawOp.FillRect || p.op === DrawOp.Point ? "rect"
        : p.op === DrawOp.Circle || p.op === DrawOp.FillCircle ? "circle" : "polygon";
      const args = p.op === DrawOp.Point ? [X(a[0]) - 1.5, Y(a[1]) - 1.5, 3, 3]
        : shape === "polygon" ? [a[0], ...a.slice(1).map((v, i) => (i % 2 ? Y(v) : X(v)))]
        : shape === "line" ? [X(a[0]), Y(a[1]), X(a[2]), Y(a[3])]
        : shape === "rect" ? [X(a[0]), Y(a[1]), a[2] * camera.scale, a[3] * camera.scale] : [X(a[0]), Y(a[1]), a[2] * camera.scale];
      return { op: `${fill ? "fill" : "stroke"} ${shape}`, colour: p.colour, args };
    });
    expect(ctx.prims).toHaveLength(want.length);
    for (let k = 0; k < want.length; k++) {
      const got = ctx.prims[k], w = want[k];
      expect(got.op).toBe(w.op);
      const [r, g, b] = got.style.match(/\d+(\.\d+)?/g)!.map(Number);
      expect((r << 16) | (g << 8) | b).toBe(w.colour);
      expect(got.args.length).toBe(w.args.length);
      got.args.forEach((v, i) => expect(v).toBeCloseTo(w.args[i], 6));
    }
    // Everything outside the camera's view is culled: a camera far away draws less.
    expect(debugDraw(world, new FakeContext(), { camera: { x: 5000, y: 5000 } })).toBeLessThan(n);
  });

  it("refuses a target that is not one and options it cannot use, drawing nothing", async () => {
    const world = await everyPart();
    const s = new DrawStream();
    debugDraw(world, s);
    const n = s.count;
    for (const bad of [{ layers: 1.5 }, { layers: -1 }, { layers: ALL_LAYERS + 1 }, { fills: ALL_LAYERS + 1 }, { fills: 0.5 }, { mask: 2 ** 32 }, { hitRadius: -1 }, { hitRadius: NaN }, { normalLength: Infinity },
      { camera: { scale: 0 } }, { camera: { x: NaN } }, { view: { x: 0, y: 0, width: -1, height: 10 } }, { view: { x: 0, y: Infinity, width: 1, height: 1 } }]) {
      expect(refusal(() => debugDraw(world, s, bad)).code, JSON.stringify(bad)).toBe("INVALID_OPTION");
      expect(s.count).toBe(n);
    }
    expect(refusal(() => debugDraw(world, {} as DebugCanvas)).code).toBe("INVALID_ARGUMENT");
    expect(refusal(() => debugDraw(world, new Float32Array(8) as unknown as DrawStream)).code).toBe("INVALID_ARGUMENT");
  });

  it("reads the world without changing it, and takes both kinds of 2D context", async () => {
    const world = await everyPart();
    const before = world.snapshot();
    debugDraw(world, new DrawStream());
    debugDraw(world, new FakeContext(), { camera: { x: 10, y: 10, scale: 2 } });
    expect(world.snapshot()).toEqual(before);
    // Type checks (npm run typecheck): a page's contexts are DebugCanvases.
    const contexts: DebugCanvas[] = [] as (CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D)[];
    expect(contexts).toEqual([]);
  });

  it("drawStream refuses a stream that is not one, drawing nothing; a polygon takes exactly its corners", () => {
    const s = new DrawStream();
    s.setStyle(DrawLayer.Bodies, 0xffffff, 1);
    s.line(0, 0, 1, 1);
    s.polygon(3, true);
    s.vertex(0, 0); s.vertex(1, 0); s.vertex(0, 1);
    const ctx = new FakeContext();
    drawStream(s, ctx);
    expect(ctx.prims.map((p) => p.op)).toEqual(["stroke line", "fill polygon"]);
    s.length -= 1; // the polygon's last number cut off
    const cut = new FakeContext();
    expect(refusal(() => drawStream(s, cut)).code).toBe("INVALID_BUFFER");
    expect(cut.prims).toEqual([]);
    s.length += 1;
    s.data[0] = 99;
    expect(refusal(() => drawStream(s, new FakeContext())).code).toBe("INVALID_BUFFER");
    const p = new DrawStream();
    for (const n of [0, 1.5, -2]) expect(refusal(() => p.polygon(n, false)).code).toBe("INVALID_COUNT");
    expect(refusal(() => p.vertex(1, 1)).code).toBe("INVALID_COUNT");
    p.polygon(2, false);
    p.vertex(1, 1);
    expect(refusal(() => p.line(0, 0, 1, 1)).code).toBe("INVALID_COUNT");
    p.vertex(2, 2);
    p.line(0, 0, 1, 1);
    expect(p.count).toBe(2);
  });
});
