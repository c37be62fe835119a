// One scene module for the tile part's demo, benchmark and tests: the tower seed's map, seeded
// random maps in the seed's ASCII format, and seeded entity origins.
import { mulberry32 } from "./scene.js";

/**
 * The tower seed's map, as the article prints it: its first nine and last twelve rows (the article
 * elides the middle). First line on top; X platform, H ladder, o coin, 0-3 monsters.
 */
export const SEED_TOWER: readonly string[] = [
  "XXXXXXXXXXXXXXXXXHXX",
  "                 H  ",
  "                 H  ",
  "                 H  ",
  "     o           H  ",
  "    o o          H  ",
  "   o   oooooooo  H  ",
  "   o   XXXXXXXH  X  ",
  "   o          H     ",
  "oooooooo        0X  ",
  "HXXXXXXX        X   ",
  "H       XX    XX    ",
  "H                   ",
  "H           0       ",
  "H  3       XX       ",
  "XXHXXXX   XXXX2     ",
  "  H      X    XXX   ",
  "  H     X           ",
  "  H    X          X ",
  "  H                 ",
  "  H        ooooooooo",
];

/** A seeded random map in the seed's ASCII format (platform runs, ladders, coins, monsters). */
export function randomAscii(cols: number, rows: number, seed: number, density = 0.25): string[] {
  const rnd = mulberry32(seed);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < cols; c++) {
      const u = rnd();
      line += u < density ? "X" : u < density + 0.06 ? "H" : u < density + 0.14 ? "o" : u < density + 0.17 ? String(Math.floor(rnd() * 4)) : u < density + 0.19 ? "-" : " ";
    }
    lines.push(line);
  }
  return lines;
}

/** Fills CELL_* flags for a big random map directly (platform runs every few rows, ladders, coins). */
export function fillRandomCells(cells: Uint8Array, cols: number, rows: number, seed: number): void {
  const rnd = mulberry32(seed);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const u = rnd();
      cells[r * cols + c] = r % 4 === 0 && u < 0.7 ? 1 : u < 0.05 ? 2 : u < 0.1 ? 4 : u < 0.15 ? 1 : 0;
    }
  }
}

/** Entity origins spread over a w x h world (integer coordinates, so every backend agrees exactly). */
export function randomOrigins(xs: Float64Array, ys: Float64Array, n: number, w: number, h: number, seed: number): void {
  const rnd = mulberry32(seed);
  for (let e = 0; e < n; e++) {
    xs[e] = Math.floor(rnd() * w);
    ys[e] = Math.floor(rnd() * h);
  }
}
