// The large list: entities whose box reaches more than one cell past home stay out of the cells
// (their selection index in H_LARGE, their box in H_BOX), and each is tested against the cells
// its box reaches and against the other large ones by sort and sweep.
import { G_LARGE, H_BOX, H_LARGE, H_PAIRS, H_PAIRS_CAP, H_SEL } from "../../layout/grid.ts";
import { hdr } from "../header.ts";
import { f32At, i32At, maxI32, minI32, setI32, tableI32 } from "../memory.ts";
import { overlapSlots } from "../shapes.ts";
import { MODE_SELF, scanCells } from "./probes.ts";
import { countNarrow, countTests, emitPair } from "./stats.ts";

/**
 * The large list of the grid just built against the small entities (through the cells their boxes
 * reach) and against each other, by sort and sweep on the left edge: a world of many large
 * entities must not cost large^2 / 2 tests. Emits (lo, hi) slot pairs.
 */
export function walkLarge(): void {
  const large = hdr(G_LARGE), largep = hdr(H_LARGE), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  sortLargeByLeft(large);
  for (let k = 0; k < large; k++) {
    const s = i32At(largep + (k << 2));
    const o = boxp + (s << 4);
    const x0 = f32At(o), y0 = f32At(o + 4), x1 = f32At(o + 8), y1 = f32At(o + 12);
    const i = i32At(selp + (s << 2));
    scanCells(i, -1, MODE_SELF, 0, false, true, x0, y0, x1, y1);
    largePairs(i, x0, y0, x1, y1, k + 1, large);
  }
}

/**
 * Sorts the large list by box left edge (Shell sort in place, Ciura's gaps: no scratch, and a fixed
 * sequence of comparisons, so every build orders the list alike), for the sweep in largePairs.
 */
function sortLargeByLeft(large: i32): void {
  const largep = hdr(H_LARGE), boxp = hdr(H_BOX);
  for (let g = 0; g < GAP_COUNT; g++) {
    const gap = tableI32(GAPS, g);
    if (gap >= large) continue;
    for (let k = gap; k < large; k++) {
      const t = i32At(largep + (k << 2));
      const key = f32At(boxp + (t << 4));
      let q = k;
      while (q >= gap) {
        const u = i32At(largep + ((q - gap) << 2));
        if (!(f32At(boxp + (u << 4)) > key)) break;
        setI32(largep + (q << 2), u);
        q -= gap;
      }
      setI32(largep + (q << 2), t);
    }
  }
}

// Ciura's Shell sort gaps, extended by x2.25, largest first.
const GAP_COUNT = 17;

const GAPS: StaticArray<i32> = [
  1355339, 602373, 267721, 118987, 52883, 23504, 10446, 4643, 1750, 701, 301, 132, 57, 23, 10, 4, 1,
];

/**
 * Tests slot i (box x0..y1) against large-list entries [from, to), which are sorted by left edge:
 * the sweep stops at the first one starting right of this box. Emits (lo, hi) slot pairs.
 */
function largePairs(i: i32, x0: f32, y0: f32, x1: f32, y1: f32, from: i32, to: i32): void {
  const largep = hdr(H_LARGE), boxp = hdr(H_BOX), selp = hdr(H_SEL);
  const pairp = hdr(H_PAIRS), cap = hdr(H_PAIRS_CAP);
  for (let q = from; q < to; q++) {
    const t = i32At(largep + (q << 2));
    const f = boxp + (t << 4);
    countTests(1);
    if (x1 < f32At(f)) break;
    if (x0 > f32At(f + 8) || y1 < f32At(f + 4) || y0 > f32At(f + 12)) continue;
    const j = i32At(selp + (t << 2));
    countNarrow(1);
    if (overlapSlots(i, j)) emitPair(pairp, cap, minI32(i, j), maxI32(i, j));
  }
}
