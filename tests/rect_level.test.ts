// The rects part: prefabs and instances, the quadtree, the four-sensor character, casts and the
// anti-tunneling projectiles, on both backends against the brute-force reference (rect_reference.ts).
import { describe, expect, it } from "vitest";
import {
  CharacterKind, CharacterState, type CreateOptions, createWorld, HitcoreError, IdKind, Input, Mirror, Part, ProjectileFlag,
  type RectLevel, type RectLevelOptions, Response, Search,
} from "../bindings/node.js";
import { RECTS_HEADER } from "../layout/grid.js";
import { RH } from "../layout/rects.js";
import { mulberry32 } from "../fixtures/random.js";
import {
  dropCharacters, floorRects, randomInputs, randomLevel, randomLevelSide, sixteenStairs, stairsRects, thinWallArena,
} from "../fixtures/rect_levels.js";
import { RefLevel, refCast, refStep, type RefCharacter, type RefConfig, type RefRect } from "./rect_reference.js";
import { BACKENDS, backendOptions, gc, leastHeapPerCall, type BackendName, newRectLevel, newWorld, refusal } from "./support.js";


async function newLevel(backend: BackendName, options: RectLevelOptions & CreateOptions = {}): Promise<RectLevel> {
  return newRectLevel({ ...options, ...(await backendOptions(backend)) });
}

/** Every backend plus the reference, fed the same level calls; prefabs go by their index (each level's handle for it is idAt's). */
async function twins(options: RectLevelOptions & CreateOptions = {}): Promise<{ levels: RectLevel[]; ref: RefLevel; addPrefab(r: number[]): number; addInstance(p: number, x: number, y: number, m?: number): void }> {
  const levels = await Promise.all(BACKENDS.map((b) => newLevel(b, options)));
  const ref = new RefLevel();
  return {
    levels, ref,
    addPrefab(r) { ref.addPrefab(r); for (const l of levels) l.addPrefab(r); return ref.prefabs.length - 1; },
    addInstance(p, x, y, m = 0) { ref.addInstance(p, x, y, m); for (const l of levels) l.addInstance(l.idAt(IdKind.Prefab, p), x, y, m); },
  };
}

function charSnapshot(level: RectLevel): number[] {
  const out: number[] = [];
  for (let c = 0; c < level.characterCount; c++) {
    out.push(level.charX[c], level.charY[c], level.charVX[c], level.charVY[c], level.charState[c], level.charGrace[c]);
  }
  return out;
}

function refChars(level: RectLevel): RefCharacter[] {
  const chars: RefCharacter[] = [];
  for (let c = 0; c < level.characterCount; c++) {
    chars.push({
      x: level.charX[c], y: level.charY[c], w: level.charW[c], h: level.charH[c], vx: level.charVX[c], vy: level.charVY[c],
      kind: level.charKind[c], input: level.charInput[c], state: level.charState[c], grace: level.charGrace[c],
    });
  }
  return chars;
}

function refSnapshot(chars: RefCharacter[]): number[] {
  return chars.flatMap((c) => [c.x, c.y, c.vx, c.vy, c.state, c.grace]);
}

/** A level with a floor at y = 400 and whatever `build` adds; one player standing on the floor at x (c: its slot). */
async function stage(backend: BackendName, build: (level: RectLevel) => void, x = 40, character = {}): Promise<{ level: RectLevel; c: number }> {
  const level = await newLevel(backend, { character });
  const floor = level.addPrefab(floorRects(2000, 16));
  level.addInstance(floor, -500, 400);
  build(level);
  const c = level.indexOf(level.addCharacter(x, 400 - 40, 20, 40, CharacterKind.Player));
  level.stepCharacters(); // settle onto the floor
  return { level, c };
}

function run(level: RectLevel, c: number, input: number, frames: number, each?: (frame: number) => void): void {
  for (let k = 0; k < frames; k++) {
    level.charInput[c] = input;
    level.stepCharacters();
    each?.(k);
  }
}

describe("rects layout", () => {
  it("keeps its header where layout/grid.ts says", () => {
    expect(RH).toBe(RECTS_HEADER);
  });
});

for (const backend of BACKENDS) {
  describe(`prefabs, instances and the quadtree (${backend})`, () => {
    it("stores a prefab's rects once however many instances use it", async () => {
      const level = await newLevel(backend);
      sixteenStairs(level);
      expect(level.instanceCount).toBe(16);
      expect(level.storedRects).toBe(8);
      const ref = new RefLevel();
      const p = ref.addPrefab(stairsRects());
      for (let k = 0; k < 16; k++) ref.addInstance(p, 256 * (k % 4), 256 * Math.floor(k / 4));
      expect(ref.stamp().length).toBe(128); // what stamping each instance would hold
    });

    it("reproduces the seed's worked example: about 35 comparisons where brute force needs 512", async () => {
      const level = await newLevel(backend);
      sixteenStairs(level);
      // Standing on the middle of the stair set in the second column, second row.
      const h = level.addCharacter(256 + 40, 256 + 96 - 36 - 40, 20, 40), c = level.indexOf(h);
      const start = charSnapshot(level);
      level.stepCharacters(Search.Tree);
      const tree = level.stats();
      const after = charSnapshot(level);
      expect(tree.nodeSteps).toBe(2); // "2 steps are taken into the quad tree"
      expect(tree.instanceTests).toBe(1); // "1 check ... the bounding box of the stair set"
      expect(tree.rectTests).toBe(32); // "32 (4 player detectors * 8 step rectangles)"
      expect(tree.nodeSteps + tree.instanceTests + tree.rectTests).toBe(35);

      for (const [search, instanceTests, rectTests] of [[Search.Boxes, 16, 32], [Search.Flat, 0, 512]]) {
        level.placeCharacter(h, start[0], start[1]);
        level.stepCharacters(search);
        expect(level.stats().instanceTests).toBe(instanceTests);
        expect(level.stats().rectTests).toBe(rectTests); // 16 * 8 * 4 without any hierarchy
        expect(charSnapshot(level)).toEqual(after);
      }
      expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
    });

    it("answers box queries like brute force and the reference on random levels, pruning most master boxes", async () => {
      for (const n of [0, 1, 7, 300, 3000]) {
        const level = await newLevel(backend, { instanceCapacity: 1, prefabCapacity: 1, rectCapacity: 1 });
        randomLevel(level, n, 11 + n);
        const ref = new RefLevel();
        const rr = mulberry32(11 + n);
        const int = (lo: number, hi: number) => lo + Math.floor(rr() * (hi - lo + 1));
        const pieces = [stairsRects(), (await import("../fixtures/rect_levels.js")).lumpyRects(), [0, 0, 8, 64], floorRects(256)];
        for (const p of pieces) ref.addPrefab(p);
        const side = randomLevelSide(n);
        for (let i = 0; i < n; i++) ref.addInstance(int(0, 3), int(0, side), int(0, side), int(0, 3));
        level.validate();
        const rnd = mulberry32(5);
        let treeTests = 0, bruteTests = 0;
        for (let q = 0; q < 200; q++) {
          const x0 = Math.floor(rnd() * side) - 50, y0 = Math.floor(rnd() * side) - 50;
          const w = q % 10 === 0 ? 0 : q % 17 === 0 ? 1e6 : Math.floor(rnd() * 300);
          const h = q % 10 === 0 ? 0 : Math.floor(rnd() * 300);
          const nt = level.queryBox(x0, y0, x0 + w, y0 + h);
          const tree = Array.from(level.results.subarray(0, nt)).sort((a, b) => a - b);
          treeTests += level.stats().instanceTests + level.stats().nodeSteps;
          const nb = level.queryBox(x0, y0, x0 + w, y0 + h, Search.Boxes);
          const brute = Array.from(level.results.subarray(0, nb)).sort((a, b) => a - b);
          bruteTests += level.stats().instanceTests;
          expect(tree).toEqual(brute);
          expect(tree).toEqual(ref.queryBox(x0, y0, x0 + w, y0 + h));
        }
        if (n >= 300) expect(treeTests).toBeLessThan(bruteTests / 4);
      }
    });

    it("handles the hard cases: one spot, zero-size rects, exact touching, huge pieces", async () => {
      const level = await newLevel(backend);
      const dot = level.addPrefab([0, 0, 0, 0]);
      const big = level.addPrefab([0, 0, 1e7, 1e7]);
      const unit = level.addPrefab([0, 0, 10, 10]);
      for (let k = 0; k < 50; k++) level.addInstance(dot, 100, 100);
      level.addInstance(big, -5e6, -5e6);
      level.addInstance(unit, 10, 0); // touches the next one exactly
      level.addInstance(unit, 20, 0);
      level.validate();
      let n = level.queryBox(100, 100, 100, 100);
      expect(n).toBe(51); // every dot, and the huge piece
      n = level.queryBox(20, 0, 20, 0); // the shared edge touches both units
      const hits = Array.from(level.results.subarray(0, n)).sort((a, b) => a - b);
      expect(hits).toEqual([50, 51, 52]);
      expect(level.queryBox(2e7, 2e7, 2e7 + 1, 2e7 + 1)).toBe(0);
    });

    it("mirrors an instance inside its own box", async () => {
      const level = await newLevel(backend);
      const p = level.addPrefab(stairsRects());
      const plain = level.addInstance(p, 1000, 0);
      const mx = level.addInstance(p, 1000, 0, Mirror.X);
      const my = level.addInstance(p, 1000, 0, Mirror.Y);
      const a = new Float64Array(4), b = new Float64Array(4), box = new Float64Array(4);
      level.instanceBox(plain, box);
      expect(Array.from(level.instanceBox(mx, new Float64Array(4)))).toEqual(Array.from(box));
      const cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
      for (let k = 0; k < 8; k++) {
        level.worldRect(plain, k, a);
        level.worldRect(mx, k, b);
        // Reflected about the box's vertical centre line: left and right edges swap.
        expect([b[0], b[1], b[2], b[3]]).toEqual([2 * cx - a[2], a[1], 2 * cx - a[0], a[3]]);
        level.worldRect(my, k, b);
        expect([b[0], b[1], b[2], b[3]]).toEqual([a[0], 2 * cy - a[3], a[2], 2 * cy - a[1]]);
      }
      // The mirrored stairs rise to the left: its tallest step is now at the left end.
      level.worldRect(mx, 7, b);
      expect(b[0]).toBe(box[0]);
    });
  });

  describe(`the four-sensor character (${backend})`, () => {
    it("walks up the stairs by stepping up, then down mirrored stairs", async () => {
      const { level, c } = await stage(backend, (l) => {
        const stairs = l.addPrefab(stairsRects());
        l.addInstance(stairs, 100, 400 - 96);
        l.addInstance(stairs, 228, 400 - 96, Mirror.X); // back down on the other side
      });
      let walls = 0, top = Infinity;
      run(level, c, Input.Right, 60, () => {
        if (level.charState[c] & (CharacterState.WallLeft | CharacterState.WallRight)) walls++;
        top = Math.min(top, level.charY[c] + 40);
      });
      expect(walls).toBe(0); // 12-high steps never reach the side sensors (stepHeight 16)
      expect(top).toBe(400 - 96); // stood on the top step
      run(level, c, Input.Right, 60, () => {
        if (level.charState[c] & (CharacterState.WallLeft | CharacterState.WallRight)) walls++;
      });
      expect(walls).toBe(0);
      expect(level.charX[c]).toBeGreaterThan(356);
      expect(level.charY[c] + 40).toBe(400); // back on the floor
      expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
    });

    it("is stopped by steps taller than stepHeight (the side sensors push out)", async () => {
      const { level, c } = await stage(backend, (l) => {
        l.addInstance(l.addPrefab([0, 0, 30, 20]), 100, 380);
      }, 40, { stepHeight: 8 });
      let wall = false;
      run(level, c, Input.Right, 40, () => { if (level.charState[c] & CharacterState.WallRight) wall = true; });
      expect(wall).toBe(true);
      expect(level.charX[c] + 20).toBe(100);
      expect(level.charY[c] + 40).toBe(400);
    });

    it("bumps its head: upward speed cancelled under the ceiling's bottom", async () => {
      const { level, c } = await stage(backend, (l) => {
        l.addInstance(l.addPrefab([0, 0, 200, 10]), 0, 400 - 40 - 30); // bottom 30 above the head
      });
      let bump = -1;
      level.charInput[c] = Input.Jump;
      level.stepCharacters();
      expect(level.charState[c] & CharacterState.Jumped).toBeTruthy();
      run(level, c, 0, 10, (k) => {
        if (bump < 0 && level.charState[c] & CharacterState.HeadBump) {
          bump = k;
          expect(level.charVY[c]).toBe(0);
          expect(level.charY[c]).toBe(400 - 40 - 30 + 10);
        }
      });
      expect(bump).toBeGreaterThanOrEqual(0);
      run(level, c, 0, 30);
      expect(level.charY[c] + 40).toBe(400); // fell back to the floor
    });

    it("lands once and then stays grounded", async () => {
      const level = await newLevel(backend);
      level.addInstance(level.addPrefab(floorRects(400)), 0, 400);
      const c = level.indexOf(level.addCharacter(100, 100, 20, 40));
      let landed = 0, firstGround = -1;
      for (let k = 0; k < 80; k++) {
        level.stepCharacters();
        if (level.charState[c] & CharacterState.Landed) landed++;
        if (firstGround < 0 && level.charState[c] & CharacterState.Grounded) firstGround = k;
        if (firstGround >= 0) expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
      }
      expect(landed).toBe(1);
      expect(level.charY[c] + 40).toBe(400);
      expect(level.charVY[c]).toBe(0);
    });

    it("stomps an enemy with the bottom box; touching it otherwise hurts", async () => {
      const level = await newLevel(backend);
      level.addInstance(level.addPrefab(floorRects(600)), 0, 400);
      const enemy = level.indexOf(level.addCharacter(100, 360, 20, 40, CharacterKind.Enemy));
      const walker = level.indexOf(level.addCharacter(300, 360, 20, 40, CharacterKind.Enemy));
      const p = level.indexOf(level.addCharacter(100, 200, 20, 40, CharacterKind.Player));
      let stomp = -1;
      for (let k = 0; k < 40 && stomp < 0; k++) {
        if (level.stepCharacters() > 0) stomp = k;
      }
      expect(stomp).toBeGreaterThanOrEqual(0);
      expect([level.stomps[0], level.stomps[1]]).toEqual([p, enemy]);
      expect(level.charState[enemy] & CharacterState.Stomped).toBeTruthy();
      expect(level.charState[p] & CharacterState.Stomping).toBeTruthy();
      expect(level.charVY[p]).toBe(-7);
      // Now walk into the other enemy on the floor: a side contact, not a stomp.
      run(level, p, 0, 40);
      let hurt = false;
      run(level, p, Input.Right, 80, () => { if (level.charState[p] & CharacterState.Hurt) hurt = true; });
      expect(hurt).toBe(true);
      expect(level.charState[walker] & CharacterState.Stomped).toBe(0);
    });

    it("allows a jump for 6 frames after walking off an edge, and pulls down harder meanwhile", async () => {
      const jumpsAt = async (k: number, graceFrames = 6) => {
        const level = await newLevel(backend, { character: { graceFrames } });
        level.addInstance(level.addPrefab(floorRects(100)), 0, 400);
        level.addInstance(level.addPrefab(floorRects(100)), 0, 2000); // far below, to land eventually
        const c = level.indexOf(level.addCharacter(60, 360, 20, 40));
        level.stepCharacters();
        let left = -1;
        for (let f = 0; f < 100; f++) {
          level.charInput[c] = Input.Right | (left >= 0 && f - left === k ? Input.Jump : 0);
          level.stepCharacters();
          if (level.charState[c] & CharacterState.Jumped) return true;
          if (left < 0 && !(level.charState[c] & CharacterState.Grounded)) left = f;
          if (left >= 0 && f - left > k) return false;
        }
        return false;
      };
      // k = 0 is the first airborne frame: the frame before it still stood on the ground.
      for (let k = 1; k <= 5; k++) expect(await jumpsAt(k)).toBe(true);
      expect(await jumpsAt(6)).toBe(false);
      expect(await jumpsAt(1, 0)).toBe(false);
      expect(await jumpsAt(3, 3)).toBe(false);
      expect(await jumpsAt(2, 3)).toBe(true);
    });

    it("hugs stairs going down with the extra pull: fewer airborne frames", async () => {
      const airborne = async (extraPull: number) => {
        const { level, c } = await stage(backend, (l) => {
          l.addInstance(l.addPrefab(stairsRects()), 200, 400 - 96, Mirror.X);
        }, 40, { extraPull, runSpeed: 4 });
        level.placeCharacter(level.idAt(IdKind.Character, c), 200, 400 - 96 - 40); // on the top step
        level.stepCharacters();
        expect(level.charState[c] & CharacterState.Grounded).toBeTruthy();
        let frames = 0;
        run(level, c, Input.Right, 40, () => { if (!(level.charState[c] & CharacterState.Grounded)) frames++; });
        expect(level.charY[c] + 40).toBe(400);
        return frames;
      };
      expect(await airborne(2)).toBeLessThan(await airborne(0));
    });
  });

  describe(`casts and projectiles (${backend})`, () => {
    it("finds the closest hit, its distance and normal", async () => {
      const level = await newLevel(backend);
      const wall = level.addPrefab([0, 0, 10, 100]);
      level.addInstance(wall, 100, 0);
      level.addInstance(wall, 50, 0);
      expect(level.castRay(0, 40, 1, 0, 500)).toBe(true);
      expect(level.hit).toMatchObject({ part: Part.Rects, distance: 50, nx: -1, ny: 0, x: 50, y: 40, shape: 1, rect: 0 });
      expect(level.castSegment(0, 40, 40, 0)).toBe(false); // stops short
      expect(level.castCircle(0, 40, 5, 200, 0)).toBe(true);
      expect(level.hit.t).toBeCloseTo(45 / 200, 12);
      expect(level.castBox(0, 30, 10, 10, 200, 0)).toBe(true); // right edge 10 reaches 50 after 40
      expect(level.hit.distance).toBe(40);
      // Exact touching counts: a segment running along the wall's top edge meets its side.
      expect(level.castSegment(0, 0, 200, 0)).toBe(true);
      expect([level.hit.distance, level.hit.nx, level.hit.shape]).toEqual([50, -1, 1]);
      expect(level.castSegment(0, -0.001, 200, 0)).toBe(false);
      expect(level.castSegment(55, 40, 0, 10)).toBe(true); // starts inside
      expect([level.hit.t, level.hit.nx, level.hit.ny]).toEqual([0, 0, 0]);
      // A circle passing the corner's bounding square but outside its rounded corner misses.
      expect(level.castCircle(45, -4.5, 5, 0, -20)).toBe(false);
      // Meeting the corner (50, 0) with the circle's lower right: 4 across and 3 up at contact.
      expect(level.castCircle(40, -3, 5, 20, 0)).toBe(true);
      expect(level.hit.t).toBeCloseTo(0.3, 12);
      expect(level.hit.nx).toBeCloseTo(-0.8, 12);
      expect(level.hit.ny).toBeCloseTo(-0.6, 12);
    });

    it("agrees with the reference on random segment, box and circle casts", async () => {
      const level = await newLevel(backend);
      const ref = new RefLevel();
      const rnd = mulberry32(77);
      const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
      const prefabs = [stairsRects(), [0, 0, 8, 64], [0, 0, 1, 200], [0, 0, 300, 1], [0, 0, 0, 0]].map((p) => { ref.addPrefab(p); return level.addPrefab(p); });
      for (let i = 0; i < 400; i++) {
        const p = int(0, 4), x = int(0, 2000), y = int(0, 2000), m = int(0, 3);
        level.addInstance(prefabs[p], x, y, m); ref.addInstance(p, x, y, m);
      }
      const rects = ref.stamp();
      let hits = 0;
      for (let q = 0; q < 1500; q++) {
        const mode = q % 3;
        const px = rnd() * 2000, py = rnd() * 2000, dx = (rnd() - 0.5) * 600, dy = (rnd() - 0.5) * 600;
        const a = rnd() * 12, b = rnd() * 12, r = rnd() * 12;
        const got = mode === 0 ? level.castSegment(px, py, dx, dy) :
          mode === 1 ? level.castBox(px - a, py - b, 2 * a, 2 * b, dx, dy) : level.castCircle(px, py, r, dx, dy);
        const want = mode === 0 ? refCast(rects, px, py, dx, dy, 0, 0, 0) :
          mode === 1 ? refCast(rects, px, py, dx, dy, a, b, 0) : refCast(rects, px, py, dx, dy, 0, 0, r);
        expect(got, `cast ${q}`).toBe(want !== null);
        if (q % 10 === 0) {
          // The quadtree changes the work, never the answer.
          const t = level.hit.t, inst = level.hit.shape;
          level.castSearch = Search.Flat;
          const flat = mode === 0 ? level.castSegment(px, py, dx, dy) :
            mode === 1 ? level.castBox(px - a, py - b, 2 * a, 2 * b, dx, dy) : level.castCircle(px, py, r, dx, dy);
          level.castSearch = Search.Tree;
          expect(flat).toBe(got);
          if (got) expect([level.hit.t, level.hit.shape]).toEqual([t, inst]);
        }
        if (!want) continue;
        hits++;
        expect(Math.abs(level.hit.t - want.t), `cast ${q} t`).toBeLessThan(1e-9);
        expect(Math.abs(level.hit.nx - want.nx) + Math.abs(level.hit.ny - want.ny), `cast ${q} normal`).toBeLessThan(1e-6);
        expect(level.hit.shape).toBe(want.instance);
      }
      expect(hits).toBeGreaterThan(300);
    });

    it("lets 100,000 fast projectiles through 0 thin walls (speeds up to 100 x the thinnest wall)", async () => {
      const side = 2000;
      const level = await newLevel(backend, { projectileCapacity: 100000 });
      thinWallArena(level, 60, side, 9);
      const ref = new RefLevel(); // the same arena, stamped for the checker
      thinWallArena(refAdapter(ref), 60, side, 9);
      const walls = ref.stamp(), inner = interiors(walls);
      const n = 100000;
      const rnd = mulberry32(21);
      const px = level.projX, py = level.projY, vx = level.projVX, vy = level.projVY, pr = level.projR;
      for (let q = 0; q < n; q++) {
        const r = q % 2 === 0 ? 0 : rnd() * 3;
        let x: number, y: number;
        do { x = 1 + rnd() * (side - 2); y = 1 + rnd() * (side - 2); } while (walls.some((w) => x > w.x0 - r - 0.5 && x < w.x1 + r + 0.5 && y > w.y0 - r - 0.5 && y < w.y1 + r + 0.5));
        const speed = rnd() * 100, angle = rnd() * 2 * Math.PI;
        px[q] = x; py[q] = y; vx[q] = Math.cos(angle) * speed; vy[q] = Math.sin(angle) * speed; pr[q] = r;
      }
      // The same motion stepped naively (x += v) would pass through walls: the trial is not vacuous.
      let naive = 0;
      for (let q = 0; q < n; q += 10) if (passesThrough(inner, px[q], py[q], px[q] + vx[q], py[q] + vy[q], pr[q])) naive++;
      expect(naive).toBeGreaterThan(100);
      const ox = new Float32Array(n), oy = new Float32Array(n);
      let through = 0, hitsTotal = 0;
      for (let frame = 0; frame < 3; frame++) {
        ox.set(level.projX.subarray(0, n)); oy.set(level.projY.subarray(0, n));
        hitsTotal += level.moveProjectiles(n);
        // Views re-read after the call: its first quadtree build may grow memory, detaching px..pr.
        const nx = level.projX, ny = level.projY, nr = level.projR;
        for (let q = 0; q < n; q++) if (passesThrough(inner, ox[q], oy[q], nx[q], ny[q], nr[q])) through++;
      }
      expect(hitsTotal).toBeGreaterThan(10000);
      expect(through).toBe(0);
      expect(Array.from(level.projFlags.subarray(0, n)).some((f) => f === ProjectileFlag.Hit)).toBe(true);
    }, 120_000);

    it("a world's bodies in the mask move against the level's rects without tunneling (moveBodies), the others stay", async () => {
      const world = await createWorld({ ...(await backendOptions(backend)) });
      const level = world.addRectLevel();
      const wall = level.addInstance(level.addPrefab([0, 0, 1, 400]), 100, 0);
      const a = world.addCircle(50, 100, 2, 2);
      const b = world.addCircle(50, 200, 2, 1); // not in the mask: untouched
      const c = world.addPoint(150, 300, 2);
      const sa = world.indexOf(a), sb = world.indexOf(b), sc = world.indexOf(c);
      world.vx[sa] = 90; world.vx[sb] = 90; world.vx[sc] = -90;
      expect(world.moveBodies(2, Response.Bounce, 1)).toBe(2);
      // a meets the wall's left face (x = 100) with its right edge after 48 of 90, c its right face after 49; both reflect.
      expect([world.hitPart[sa], world.hitShape[sa], world.hitRect[sa], world.hitNx[sa], world.hitNy[sa]]).toEqual([Part.Rects, level.indexOf(wall), 0, -1, 0]);
      expect([world.hitPart[sc], world.hitShape[sc], world.hitRect[sc], world.hitNx[sc], world.hitNy[sc]]).toEqual([Part.Rects, level.indexOf(wall), 0, 1, 0]);
      expect(level.idAt(IdKind.Instance, world.hitShape[sa])).toBe(wall);
      expect(world.hitT[sa]).toBeCloseTo(48 / 90, 6);
      expect(world.hitT[sc]).toBeCloseTo(49 / 90, 6);
      expect(world.vx[sa]).toBe(-90);
      expect(world.vx[sc]).toBe(90);
      expect(world.x[sa]).toBeCloseTo(98 - 42, 2); // the rest of the move, reflected (less a skin): never past the wall
      expect(world.x[sc]).toBeCloseTo(101 + 41, 2);
      expect([world.x[sb], world.vx[sb], world.hitPart[sb]]).toEqual([50, 90, Part.None]);
      expect([world.y[sa], world.y[sc]]).toEqual([100, 300]);
    });
  });

  describe(`bad input (${backend})`, () => {
    it("rejects bad pieces and characters with HitcoreError and leaves the level unchanged", async () => {
      const level = await newLevel(backend);
      const p = level.addPrefab([0, 0, 10, 10]);
      const empty = level.addPrefab([]);
      level.addInstance(p, 0, 0);
      const c = level.addCharacter(0, -40, 20, 40);
      const before = () => [level.prefabCount, level.instanceCount, level.storedRects, level.characterCount, ...charSnapshot(level)];
      const snap = before();
      const cases: [() => unknown, string][] = [
        [() => level.addPrefab([0, 0, -1, 5]), "NEGATIVE_SIZE"],
        [() => level.addPrefab([0, 0, 5]), "INVALID_PREFAB"],
        [() => level.addPrefab([0, NaN, 5, 5]), "INVALID_NUMBER"],
        [() => level.addInstance(99, 0, 0), "UNKNOWN_ID"],
        [() => level.addInstance(-1, 0, 0), "UNKNOWN_ID"],
        [() => level.addInstance(p + 5, 0, 0), "UNKNOWN_ID"],
        [() => level.addInstance(empty, 0, 0), "EMPTY_PREFAB"],
        [() => level.addInstance(p, Infinity, 0), "INVALID_NUMBER"],
        [() => level.addInstance(p, 0, 0, 4), "INVALID_MIRROR"],
        [() => level.addCharacter(0, 0, -20, 40), "NEGATIVE_SIZE"],
        [() => level.addCharacter(0, 0, 20, 10), "INVALID_CHARACTER"],
        [() => level.addCharacter(0, 0, 20, 40, 7), "INVALID_KIND"],
        [() => level.queryBox(10, 0, 0, 10), "NEGATIVE_SIZE"],
        [() => level.castCircle(0, 0, -1, 1, 1), "NEGATIVE_SIZE"],
        [() => level.castRay(0, 0, 0, 0, 10), "INVALID_DIRECTION"],
        [() => level.castSegment(0, NaN, 1, 1), "INVALID_NUMBER"],
        [() => level.moveProjectiles(level.projectileCapacity + 1), "INVALID_COUNT"],
        [() => level.placeCharacter(c + 5, 0, 0), "UNKNOWN_ID"],
        [() => level.placeCharacter(p, 0, 0), "UNKNOWN_ID"],
        [() => level.placeCharacter(0, 0, 0), "UNKNOWN_ID"],
        [() => level.setCharacterConfig({ gravity: -1 }), "INVALID_OPTION"],
        [() => level.setCharacterConfig({ sensorTop: 100 }), "INVALID_CHARACTER"],
        [() => level.stepCharacters(9), "INVALID_OPTION"],
      ];
      for (const [call, code] of cases) {
        let err: unknown;
        try { call(); } catch (e) { err = e; }
        expect(err, code).toBeInstanceOf(HitcoreError);
        expect((err as HitcoreError).code).toBe(code);
        expect((err as HitcoreError).message.length).toBeGreaterThan(40);
        expect(before()).toEqual(snap);
      }
      await expect(newLevel(backend, { character: { graceFrames: 1.5 } })).rejects.toThrow(HitcoreError);
      await expect(newLevel(backend, { instanceCapacity: 0 })).rejects.toThrow(HitcoreError);
    });

    it("keeps only the known character fields: an own __proto__ key or a non-object is refused or ignored, and snapshots still work", async () => {
      const world = await newWorld(backend);
      const level = world.addRectLevel();
      const config = level.characterConfig, before = world.snapshot();
      const poisoned = JSON.parse('{"__proto__": {"length": 3}, "gravity": 0.25}');
      level.setCharacterConfig(poisoned);
      expect(level.characterConfig).toEqual({ ...config, gravity: 0.25 });
      expect(Object.getPrototypeOf(level.characterConfig)).toBe(Object.prototype);
      expect(world.snapshot().length).toBe(before.length);
      expect(refusal(() => level.setCharacterConfig(5 as never)).code).toBe("INVALID_OPTION");
      expect(refusal(() => level.setCharacterConfig({ gravity: undefined } as never)).code).toBe("INVALID_OPTION");
      expect(level.characterConfig).toEqual({ ...config, gravity: 0.25 });
    });

    it("does not trap on NaN written through the views", async () => {
      const level = await newLevel(backend);
      level.addInstance(level.addPrefab([0, 0, 10, 10]), 0, 0);
      const c = level.indexOf(level.addCharacter(0, -40, 20, 40));
      level.charX[c] = NaN;
      level.projX[0] = NaN; level.projVY[0] = Infinity;
      expect(() => { level.stepCharacters(); level.moveProjectiles(1); }).not.toThrow();
    });
  });
}

describe("differential: wasm, js and the reference step the same characters", () => {
  it("agree bit for bit on a random level with 150 characters over 150 frames, in every search mode", async () => {
    const t = await twins({ instanceCapacity: 4 });
    const pieces = [stairsRects(), (await import("../fixtures/rect_levels.js")).lumpyRects(), [0, 0, 8, 64], floorRects(256)];
    for (const p of pieces) t.addPrefab(p);
    const rnd = mulberry32(99);
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const side = 1600;
    for (let i = 0; i < 500; i++) t.addInstance(int(0, 3), int(0, side), int(0, side), int(0, 3));
    for (let k = 0; k < 40; k++) t.addInstance(3, 256 * (k % 8) - 200, 200 * Math.floor(k / 8) + 300);
    for (const l of t.levels) dropCharacters(l, 150, side, 4);
    const rects = t.ref.stamp();
    const chars = refChars(t.levels[0]);
    const cfg = t.levels[0].characterConfig as RefConfig;
    const inputs = mulberry32(3);
    let landed = 0, bumps = 0;
    for (let frame = 0; frame < 150; frame++) {
      randomInputs(t.levels[0], inputs);
      for (const l of t.levels.slice(1)) l.charInput.set(t.levels[0].charInput.subarray(0, 150));
      chars.forEach((ch, c) => { ch.input = t.levels[0].charInput[c]; });
      const search = [Search.Tree, Search.Boxes, Search.Flat][frame % 3];
      const counts = t.levels.map((l) => l.stepCharacters(search));
      const want = refStep(chars, rects, cfg);
      expect(counts).toEqual(t.levels.map(() => want.length));
      const snap = refSnapshot(chars);
      for (const l of t.levels) {
        const got = charSnapshot(l);
        const at = got.findIndex((v, k) => !Object.is(v, snap[k]));
        if (at >= 0) {
          const c = Math.floor(at / 6);
          throw new Error(`frame ${frame} ${l.backend} character ${c}: got ${got.slice(6 * c, 6 * c + 6)}, reference ${snap.slice(6 * c, 6 * c + 6)}, input ${chars[c].input}`);
        }
      }
      for (const ch of chars) { if (ch.state & CharacterState.Landed) landed++; if (ch.state & CharacterState.HeadBump) bumps++; }
    }
    expect(landed).toBeGreaterThan(50);
    expect(bumps).toBeGreaterThan(0);
  }, 60_000);

  it("wasm and js move projectiles identically", async () => {
    const levels = await Promise.all(BACKENDS.map((b) => newLevel(b, { projectileCapacity: 5000 })));
    for (const l of levels) thinWallArena(l, 40, 1000, 5);
    for (const l of levels) {
      const rnd = mulberry32(8);
      for (let q = 0; q < 5000; q++) {
        l.projX[q] = rnd() * 1000; l.projY[q] = rnd() * 1000; l.projVX[q] = (rnd() - 0.5) * 150; l.projVY[q] = (rnd() - 0.5) * 150;
        l.projR[q] = q % 3 === 0 ? 0 : rnd() * 4;
      }
    }
    for (let f = 0; f < 10; f++) {
      const hits = levels.map((l) => l.moveProjectiles(5000));
      for (const l of levels.slice(1)) {
        expect(hits[levels.indexOf(l)]).toBe(hits[0]);
        expect(Array.from(l.projX.subarray(0, 5000))).toEqual(Array.from(levels[0].projX.subarray(0, 5000)));
        expect(Array.from(l.projVY.subarray(0, 5000))).toEqual(Array.from(levels[0].projVY.subarray(0, 5000)));
      }
    }
  });
});

describe("the wasm rects frame loop", () => {
  it.runIf(gc !== undefined)("allocates no JS heap per frame, and memory stays flat", async () => {
    const level = await newLevel("wasm-scalar", { projectileCapacity: 1000 });
    randomLevel(level, 2000, 4);
    dropCharacters(level, 200, randomLevelSide(2000), 6);
    const rnd = mulberry32(1);
    for (let q = 0; q < 1000; q++) {
      level.projX[q] = rnd() * 3000; level.projY[q] = rnd() * 3000; level.projVX[q] = rnd() * 80 - 40; level.projVY[q] = rnd() * 80 - 40;
    }
    const stats = new Int32Array(5);
    const frame = () => {
      level.stepCharacters();
      level.statsInto(stats);
      level.moveProjectiles(1000);
      level.queryBox(100, 100, 1060, 700);
      level.castSegment(0, 0, 300, 290);
      level.castCircle(500, 0, 6, 10, 300);
    };
    for (let f = 0; f < 1000; f++) frame();
    const memory = level.memoryBytes;
    expect(leastHeapPerCall(frame, 600, 2, 6)).toBeLessThan(2);
    expect(level.memoryBytes).toBe(memory);
  });
});

/** Walls shrunk by a hair: a path may touch a wall's surface, not enter it. */
function interiors(walls: RefRect[]): RefRect[] {
  return walls.map((w) => ({ ...w, x0: w.x0 + 1e-4, y0: w.y0 + 1e-4, x1: w.x1 - 1e-4, y1: w.y1 - 1e-4 }));
}

/** Does the path of a circle (radius r) from (x0, y0) to (x1, y1) enter a wall's interior? */
function passesThrough(inner: RefRect[], x0: number, y0: number, x1: number, y1: number, r: number): boolean {
  const near = inner.filter((w) => Math.min(x0, x1) - r <= w.x1 && w.x0 <= Math.max(x0, x1) + r && Math.min(y0, y1) - r <= w.y1 && w.y0 <= Math.max(y0, y1) + r);
  if (near.length === 0) return false;
  return refCast(near, x0, y0, x1 - x0, y1 - y0, 0, 0, r) !== null;
}

/** RefLevel behind the RectLevel methods thinWallArena uses. */
function refAdapter(ref: RefLevel): RectLevel {
  return { addPrefab: (r: number[]) => ref.addPrefab(r), addInstance: (p: number, x: number, y: number, m?: number) => ref.addInstance(p, x, y, m) } as unknown as RectLevel;
}
