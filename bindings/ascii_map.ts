// The tower seed's ASCII map format: `X` platform, `H` ladder, `o` coin, `0`-`3` monsters, space
// empty; plus `-` one-way platform and `^` spikes. The first line is the top row of the map, row 0
// (y grows downward, as the text reads). Pure TS, run once at load time.
import { CELL_COIN, CELL_LADDER, CELL_ONE_WAY, CELL_PLATFORM, CELL_SPIKE } from "../layout/tiles.js";
import { HitcoreError } from "./validate.js";

/** A map ready to load into a TileMap: cell flags (row 0 at the top) and monster spawns. */
export interface ParsedTileMap {
  cols: number;
  rows: number;
  /** Tile size the source declares (Tiled's tilewidth); undefined for ASCII maps. */
  tileSize?: number;
  /** CELL_* flags, index row * cols + col, row 0 at the top. */
  cells: Uint8Array;
  /** Monster spawns as (col, row, type) triples, row 0 at the top. */
  monsters: Int32Array;
}

/** The most cells a map may declare: 64M cells is 64 MiB of flags plus 256 MiB of monster heads. */
export const MAX_MAP_CELLS = 1 << 26;

const MEANING: Record<string, number> = { " ": 0, X: CELL_PLATFORM, H: CELL_LADDER, o: CELL_COIN, "-": CELL_ONE_WAY, "^": CELL_SPIKE };

/** Parses the seed's ASCII rows (an array of lines, or one string with newlines). */
export function parseAsciiMap(source: readonly string[] | string): ParsedTileMap {
  const lines = typeof source === "string" ? source.replace(/\r/g, "").split("\n").filter((l, i, all) => !(l === "" && i === all.length - 1)) : source;
  if (!Array.isArray(lines) || lines.length === 0) {
    throw new HitcoreError("MALFORMED_MAP", "ASCII map has no rows; pass an array of equal-length strings, the first being the top row.");
  }
  const rows = lines.length;
  const first = lines[0];
  if (typeof first !== "string" || first.length === 0) {
    throw new HitcoreError("MALFORMED_MAP", "ASCII map row 0 (the first line) is empty or not a string; every row needs one character per column.");
  }
  const cols = first.length;
  if (cols * rows > MAX_MAP_CELLS) {
    throw new HitcoreError("MALFORMED_MAP", `ASCII map of ${cols} x ${rows} cells is over the limit of ${MAX_MAP_CELLS} cells; split the level.`);
  }
  // Check every row before allocating anything.
  let monsters = 0;
  for (let line = 0; line < rows; line++) {
    const text = lines[line];
    if (typeof text !== "string") throw new HitcoreError("MALFORMED_MAP", `ASCII map line ${line} is not a string.`);
    if (text.length !== cols) {
      throw new HitcoreError("MALFORMED_MAP", `ASCII map line ${line} has ${text.length} characters, expected ${cols} like line 0; pad it with spaces.`);
    }
    for (let c = 0; c < cols; c++) {
      const ch = text[c];
      if (ch >= "0" && ch <= "3") monsters++;
      else if (!Object.hasOwn(MEANING, ch)) {
        throw new HitcoreError("MALFORMED_MAP", `ASCII map line ${line}, column ${c}: unknown character ${JSON.stringify(ch)}; use X, H, o, 0-3, -, ^ or space.`);
      }
    }
  }
  const cells = new Uint8Array(cols * rows);
  const spawns = new Int32Array(3 * monsters);
  let m = 0;
  for (let row = 0; row < rows; row++) {
    const text = lines[row];
    for (let c = 0; c < cols; c++) {
      const ch = text[c];
      if (ch >= "0" && ch <= "3") {
        spawns[m++] = c;
        spawns[m++] = row;
        spawns[m++] = ch.charCodeAt(0) - 48;
      } else {
        cells[row * cols + c] = MEANING[ch];
      }
    }
  }
  return { cols, rows, cells, monsters: spawns };
}
