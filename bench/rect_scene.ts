// One scene module for the rects part's demo, benchmark and tests: the seed's prefab pieces
// (stairs of eight steps, lumpy land, poles, floors), its worked example of 16 stair sets, seeded
// random levels and the thin-wall arena of the tunneling trials. Integer coordinates throughout,
// so every backend and the reference compute the same numbers.
import type { RectLevel } from "../bindings/rect_level.js";
import { mulberry32 } from "./scene.js";

/** The seed's stairs: eight steps, each 16 wide and 12 high, rising to the right; every step reaches the ground. */
export function stairsRects(): number[] {
  const r: number[] = [];
  for (let k = 0; k < 8; k++) r.push(16 * k, 96 - 12 * (k + 1), 128 - 16 * k, 12 * (k + 1));
  return r;
}

/** Lumpy land: a bumpy platform of overlapping rects (the seed's "bumpy, uneven terrain"). */
export function lumpyRects(): number[] {
  const heights = [8, 14, 18, 12, 20, 10, 6, 12];
  const r: number[] = [];
  for (let k = 0; k < heights.length; k++) r.push(24 * k, 24 - heights[k], 28, heights[k] + 8);
  return r;
}

/** A pole: one tall thin rect (the seed's 8 x 64 pole). */
export function poleRects(): number[] {
  return [0, 0, 8, 64];
}

/** A floor slab. */
export function floorRects(width: number, height = 16): number[] {
  return [0, 0, width, height];
}

export interface PrefabIds {
  stairs: number;
  lumpy: number;
  pole: number;
  floor: number;
}

export function addPieces(level: RectLevel, floorWidth = 256): PrefabIds {
  return {
    stairs: level.addPrefab(stairsRects()),
    lumpy: level.addPrefab(lumpyRects()),
    pole: level.addPrefab(poleRects()),
    floor: level.addPrefab(floorRects(floorWidth)),
  };
}

/** The seed's worked example: 16 stair sets evenly spread (4 x 4, 256 apart). Returns the stairs prefab. */
export function sixteenStairs(level: RectLevel): number {
  const stairs = level.addPrefab(stairsRects());
  for (let gy = 0; gy < 4; gy++) for (let gx = 0; gx < 4; gx++) level.addInstance(stairs, 256 * gx, 256 * gy);
  return stairs;
}

/** A random level of n instances of the pieces on a field that grows with sqrt(n); some mirrored. */
export function randomLevel(level: RectLevel, n: number, seed = 1): PrefabIds {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const ids = addPieces(level);
  const side = Math.max(512, Math.round(Math.sqrt(n) * 160));
  const kinds = [ids.stairs, ids.lumpy, ids.pole, ids.floor];
  for (let i = 0; i < n; i++) level.addInstance(kinds[int(0, 3)], int(0, side), int(0, side), int(0, 3));
  return ids;
}

/** Side of the field randomLevel(n) fills. */
export function randomLevelSide(n: number): number {
  return Math.max(512, Math.round(Math.sqrt(n) * 160));
}

/** n characters dropped at random over a level of side `side` (the first one a player, the rest enemies). */
export function dropCharacters(level: RectLevel, n: number, side: number, seed = 2): void {
  const rnd = mulberry32(seed);
  for (let c = 0; c < n; c++) {
    level.addCharacter(Math.floor(rnd() * side), Math.floor(rnd() * side), 20, 40, c === 0 ? 1 : 2);
  }
}

/** Random inputs for every character (walking mostly, jumping sometimes), from a seeded generator. */
export function randomInputs(level: RectLevel, rnd: () => number): void {
  const input = level.charInput;
  for (let c = 0; c < level.characterCount; c++) {
    const r = rnd();
    input[c] = (r < 0.4 ? 1 : r < 0.8 ? 2 : 0) | (rnd() < 0.08 ? 4 : 0);
  }
}

/** Thin walls for the tunneling trials: `walls` rects 1 thick (vertical or horizontal) inside a closed box. */
export function thinWallArena(level: RectLevel, walls: number, side: number, seed = 3): void {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const thin = level.addPrefab([0, 0, 1, 200]);
  const flat = level.addPrefab([0, 0, 200, 1]);
  const edgeV = level.addPrefab([0, 0, 1, side + 2]);
  const edgeH = level.addPrefab([0, 0, side + 2, 1]);
  level.addInstance(edgeV, -1, -1);
  level.addInstance(edgeV, side, -1);
  level.addInstance(edgeH, -1, -1);
  level.addInstance(edgeH, -1, side);
  for (let k = 0; k < walls; k++) {
    if (k % 2 === 0) level.addInstance(thin, int(20, side - 20), int(0, side - 200));
    else level.addInstance(flat, int(0, side - 200), int(20, side - 20));
  }
}
