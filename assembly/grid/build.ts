// A grid build: select (pass 1), then for a home grid homes (pass 2), a prefix sum and the
// scatter (pass 3), or for a reach grid its own passes 2 and 3 (reach.ts); the G_* header fields
// describe the grid built.
import {
  CLASS_ALL, G_CELL, G_COLS, G_COVER, G_ENTRIES, G_GUESS_COLS, G_GUESS_OX, G_GUESS_OY, G_GUESS_ROWS, G_GUESS_SIDE,
  G_GUESS_STABLE, G_INV, G_INVY, G_LARGE, G_MASK, G_MAXX, G_MAXY, G_OX, G_OY, G_REACHH, G_REACHW, G_ROWS, G_SELECTED, G_SPLIT,
  H_CAPACITY,
} from "../../layout/grid.ts";
import { hdr, hdrD, hdrF, setHdr, setHdrD, setHdrF } from "../header.ts";
import { bit, SIMD, toF32 } from "../memory.ts";
import { countsFit16, homePass16, homePass32 } from "./home.ts";
import { reachHeight, reachPass, reachScatter, reachWidth } from "./reach.ts";
import { prefix16, prefixSum, scatterPass } from "./scatter.ts";
import { guessedLarge, selectHomePass, selectPass } from "./select.ts";
import {
  chooseShape, gridCols, gridMaxX, gridMaxY, gridOriginX, gridOriginY, gridRows, gridSide, gridSideY, widenBounds,
} from "./shape.ts";
import { flushInvalid, noteChecked, resetInvalid } from "./stats.ts";

/** Builds the grid over live entities with (groups & mask) != 0 among slots [0, count); returns how many it holds. */
export function buildGrid(count: i32, mask: i32, cellSize: f32): i32 {
  return build(count, mask, cellSize, false, 0, CLASS_ALL);
}

/**
 * The grid over `mask` (and class `cls`): home cells (each small entity in the cell of its
 * top-left corner, the queries looking one cell back), or with `cover` a reach grid (each entity
 * listed in every cell its box reaches once widened left and up by the reach extents, the queries
 * looking at their own cells only). Cells cellSize wide, and cellSizeY high when it is not 0 (a
 * split's grid); cellSize 0 lets the size histogram choose. With `guess` (selfPairs' one grid),
 * the grid is remembered in the G_GUESS_* fields for the next call. Writes the G_* fields;
 * returns how many entities the grid holds, or -1 when a reach grid's records would not fit.
 */
export function build(count: i32, mask: i32, cellSize: f32, cover: bool, cellSizeY: f32, cls: i32, guess: bool = false): i32 {
  resetInvalid();
  // selfPairs' one grid, when the last two calls made the same grid: homes found on it in the select pass.
  const guessed = SIMD && guess && hdr(G_GUESS_STABLE) != 0 && countsFit16((hdr(G_GUESS_COLS) + 1) * (hdr(G_GUESS_ROWS) + 1));
  const n = guessed ? selectHomePass(count, mask) : selectPass(count, mask, cls);
  noteChecked(mask); // the select passes test every live slot in the mask, whatever the class
  flushInvalid();
  setHdr(G_SELECTED, n);
  setHdr(G_MASK, mask);
  setHdr(G_COVER, bit(cover));
  setHdrF(G_REACHW, cover ? reachWidth() : 0);
  setHdrF(G_REACHH, cover ? reachHeight() : 0);
  setHdr(G_SPLIT, 0); // selfPairs sets it after a split
  if (n == 0) {
    setHdr(G_COLS, 0); setHdr(G_ROWS, 0); setHdr(G_ENTRIES, 0); setHdr(G_LARGE, 0);
    return 0;
  }
  if (cover && !widenBounds(reachWidth(), reachHeight())) return -1;
  chooseShape(n, cellSize, cellSizeY, cover);
  const cols = gridCols(), rows = gridRows(), ncells = (cols + 1) * (rows + 1);
  const side = gridSide(), ox = gridOriginX(), oy = gridOriginY();
  const inv = toF32(1 / side), invY = toF32(1 / gridSideY());
  let large = 0, records = 0;
  if (cover) {
    records = reachPass(n, inv, hdr(H_CAPACITY));
    if (records < 0) return -1;
    prefixSum(ncells, false);
    reachScatter(n, records);
  } else {
    let same = false;
    if (guess) {
      same = side == hdrD(G_GUESS_SIDE) && ox == hdrF(G_GUESS_OX) && oy == hdrF(G_GUESS_OY) && cols == hdr(G_GUESS_COLS) && rows == hdr(G_GUESS_ROWS);
      setHdr(G_GUESS_STABLE, bit(same));
      setHdrD(G_GUESS_SIDE, side); setHdrF(G_GUESS_OX, ox); setHdrF(G_GUESS_OY, oy);
      setHdr(G_GUESS_COLS, cols); setHdr(G_GUESS_ROWS, rows);
    }
    // Counts as u16 in the entries (free until the scatter) when they fit: at 100k entities
    // that is 0.7 MB, where i32 counts are 1.4 MB, more than a core's L2 cache.
    large = guessed && same ? guessedLarge() : countsFit16(ncells) ? homePass16(n, inv, invY) : -1;
    if (large >= 0) prefix16(ncells);
    else {
      large = homePass32(n, inv, invY);
      prefixSum(ncells, true);
    }
    records = n - large;
    scatterPass(n);
  }
  setHdr(G_COLS, cols);
  setHdr(G_ROWS, rows);
  setHdrF(G_OX, ox);
  setHdrF(G_OY, oy);
  setHdrF(G_MAXX, gridMaxX());
  setHdrF(G_MAXY, gridMaxY());
  setHdrF(G_INV, inv);
  setHdrF(G_INVY, invY);
  setHdrF(G_CELL, toF32(side));
  setHdr(G_ENTRIES, records);
  setHdr(G_LARGE, large);
  return n;
}
