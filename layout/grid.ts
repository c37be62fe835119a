// The shared memory contract between the facade and the core (its wasm builds and its js build).
// This file is compiled by both tsc and asc, so it holds plain integer constants only.
//
// Header: one 4-byte field per slot at HEADER + 4 * field (HEADER_FIELDS of them, up to the next
// part's header). The facade writes the region pointers and capacities; the core writes the grid
// parameters, the stats of its last call, and what its calls keep for the next.
//
//   field            type  written by  meaning
//   H_CAPACITY       i32   facade      entity slots per store array (the probe lives at index CAPACITY)
//   H_X .. H_B       i32   facade      f32[CAPACITY+1]: x, y, a (radius or width), b (height)
//   H_GROUPS         i32   facade      u32[CAPACITY+1]: group bits, 0 for a free slot
//   H_KIND           i32   facade      u8[CAPACITY+1]: KIND_*, 0 for a free slot
//   H_FLAGS          i32   facade      u8[CAPACITY+1]: FLAG_* written by firstHits
//   H_BOX            i32   facade      f32[4 * CAPACITY]: boxes (x0, y0, x1, y1) of the large entities by selection index, scratch (also the SIMD probe's list and setPositions' f32s)
//   H_SEL            i32   facade      i32[CAPACITY]: selected slot indices, scratch
//   H_CELLS, _CAP    i32   facade      i32[CELLS_CAP]: 0, then per cell (pitch cols + 1, rows + 1) counts, then ends, scratch
//   H_ENTRIES        i32   facade      ENTRY_BYTES x CAPACITY: (slot | kind << KIND_SHIFT, x, y, a, b, cell) of the small entities by cell
//   H_LARGE          i32   facade      i32[CAPACITY]: selection indices of the large entities, then the SIMD walk's run starts; in a reach grid (none are large), the SIMD probe's record tags
//   H_HOME           i32   facade      i32[CAPACITY]: home cell of each selected entity, -1 if large; after the scatter, the SIMD walk's cell per entry and its list
//   H_PAIRS, _CAP    i32   facade      i32[2 * PAIRS_CAP]: pair output
//   H_RESULTS        i32   facade      i32[CAPACITY]: query output
//   H_HIST           i32   facade      i32[256]: size histogram (f32 exponent buckets), scratch
//   H_PLANES         i32   facade      f32[4 x PLANE_STRIDE]: the entries' boxes as four planes (x0s, y0s, x1s, y1s), scratch of the SIMD core
//   G_*              mixed kernel      the grid built by the last call, and what the grid's calls keep for the next
//   S_*              i32   kernel      what the last call visited
export const HEADER = 256;
export const HEADER_FIELDS = 64;

// Every part of the library keeps its header at its own fixed address (up to 128 i32 fields each),
// so the parts of a world share one memory. asconfig.json's memoryBase (HEADERS_END) keeps the core's
// static data above all of them, and the facade's regions start at ARENA_BASE, above the static data
// of every build, so the wasm-scalar, wasm-simd and js cores lay a world out at the same addresses
// (a snapshot moves between them).
export const WORLD_HEADER = 2048; // the cross-part calls (layout/moves.ts)
export const HEADERS_END = 4096;
export const ARENA_BASE = 16384;
export const PLATFORMS_HEADER = 512; // surfaces, polyhedra, balls (layout/platforms.ts)
export const RECTS_HEADER = 1024; // prefabs, instances, quadtree, characters (layout/rects.ts)
export const TILES_HEADER = 1536; // tile maps, collision points (layout/tiles.ts)
export const PART_HEADER_FIELDS = 128;

export const H_CAPACITY = 0;
export const H_X = 1;
export const H_Y = 2;
export const H_A = 3;
export const H_B = 4;
export const H_GROUPS = 5;
export const H_KIND = 6;
export const H_FLAGS = 7;
export const H_BOX = 8;
export const H_SEL = 9;
export const H_CELLS = 10;
export const H_CELLS_CAP = 11;
export const H_ENTRIES = 12;
export const H_LARGE = 13;
export const H_PAIRS = 14;
export const H_PAIRS_CAP = 15;
export const H_RESULTS = 16;
export const H_HIST = 17;
export const H_HOME = 18;
export const H_PLANES = 19;

// Grid of the last build (f32 fields are stored as f32 bits).
export const G_COLS = 20;
export const G_ROWS = 21;
export const G_OX = 22; // f32
export const G_OY = 23; // f32
export const G_MAXX = 24; // f32
export const G_MAXY = 25; // f32
export const G_INV = 26; // f32, 1 / cell size
export const G_CELL = 27; // f32, cell size
export const G_SELECTED = 28;
export const G_ENTRIES = 29;
export const G_MASK = 30;
export const G_LARGE = 31;
export const G_COVER = 32; // 1: a reach grid (each entity listed in every cell its box, widened by the probes' extent, reaches), 0: home cells
export const G_INVY = 39; // f32, 1 / cell height (cells are square but in selfPairs' split grids)
export const G_SPLIT = 40; // 1: the last selfPairs split thin boxes into a wide and a tall grid (G_* describe the tall one)
// A reach grid's widening (f32): the largest probe width and height it finds every pair for (0 for other grids).
export const G_REACHW = 41;
export const G_REACHH = 42;

// What a call leaves for the next (in the header, so that each world keeps its own: the js
// backend's worlds share one instance of the core). All start at 0 in a fresh memory.
// selfPairs' one grid, guessed again while it stays the same: its columns, rows, cell side (f64,
// two fields from an even one), origin (f32), and whether the last two calls made the same grid.
export const G_GUESS_COLS = 43; // 0: no grid yet
export const G_GUESS_SIDE = 44; // f64, fields 44 and 45
export const G_GUESS_OX = 46; // f32
export const G_GUESS_OY = 47; // f32
export const G_GUESS_ROWS = 48;
export const G_GUESS_STABLE = 49;
// selfPairs' split of thin boxes: whether the last one-grid walk was crowded, and the calls left
// before the split is tried again.
export const G_CROWDED = 50;
export const G_SPLIT_RETRY = 51;
// crossPairs: whether the last reach grid's probes held under half a record each on average
// (the SIMD probe then tests only the probes whose run holds records).
export const G_SPARSE_RUNS = 52;
// crossPairs: the probes' largest width and height (f32) in the last call that probed a reach
// grid, and their mask (G_PROBE_KNOWN 0: none); the next call with that mask widens by them.
export const G_PROBE_KNOWN = 53;
export const G_PROBE_MASK = 54;
export const G_PROBE_W = 55;
export const G_PROBE_H = 56;
// crossPairs: the side the last call indexed in a reach grid (INDEX_*) and its two masks.
export const G_INDEX_SIDE = 57;
export const G_INDEX_MASK_A = 58;
export const G_INDEX_MASK_B = 59;
export const INDEX_NONE = 0;
export const INDEX_B = 1; // maskB's side
export const INDEX_A = 2; // maskA's side

// Stats of the last call (Box2D's b2TreeStats idea: prove pruning, not only speed).
export const S_AABB_TESTS = 33;
export const S_NARROW_TESTS = 34;
export const S_FOUND = 35;
export const S_INVALID = 36;
export const S_FIRST_INVALID = 37;
export const S_CELLS_VISITED = 38;

export const KIND_NONE = 0;
export const KIND_POINT = 1;
export const KIND_CIRCLE = 2;
export const KIND_RECT = 3;

export const FLAG_STOPPED = 1; // firstHits: this bullet hit something and stopped
export const FLAG_HIT = 2; // firstHits: this enemy was hit

export const NO_SLOT = 0x7fffffff; // firstHits: no hit found
export const HIST_BUCKETS = 256;
export const ENTRY_BYTES = 24;
// The SIMD core's box planes: one f32 per entry and eight of slack, so an eight-lane step at any
// entry stays inside its plane. Plane k starts at H_PLANES + 4 * k * (CAPACITY + PLANE_SLACK).
export const PLANE_SLACK = 8;
export const KIND_SHIFT = 24; // entry tags: slots stay below 2^24
export const TAG_SLOT = 0xffffff;
// A reach grid record's cell field has this bit when the record is a rect whose f32 box (x, y,
// x + a, y + b in f32) is the box the exact test uses (the f64 sums): for two such rects the f32
// box test is the exact test, and the probe emits the pair without it.
export const REACH_EXACT = 1 << 31;

// The most cells per selected entity the grid may have (a sparse world gets coarser cells).
export const CELLS_PER_ENTITY = 4;
export const SCRATCH_SLACK = 64;
// crossPairs tries a reach grid when the smaller side is at most CAPACITY / COVER_RECORDS entities
// (its records must fit CAPACITY); the grid has up to COVER_CELLS_PER_ENTITY cells per entity, and
// at most COVER_CELLS_MOST (but CELLS_PER_ENTITY per entity if that is more): every probe reads the
// cell table at random, and past 128 KB it falls out of this machine's cache (100k bullets against
// 3,000 enemies took 0.86-0.93 of the time with 32k cells instead of 85k).
export const COVER_RECORDS = 9;
export const COVER_CELLS_PER_ENTITY = 32;
export const COVER_CELLS_MOST = 1 << 15;
// selfPairs' split of thin boxes: entity classes by box shape, and the most large entities the
// tall grid may hold (every wide box is tested against all of them).
export const CLASS_ALL = 0;
export const CLASS_WIDE = 1; // width >= height
export const CLASS_TALL = 2; // height > width
export const SPLIT_LARGE = 32;

// Coordinates and sizes beyond this magnitude are rejected (their sums must stay finite in f32):
// by the facades' checks (bindings/validate.ts) and by the setPositions kernels.
export const MAX_COORD = 1e30;
/**
 * The largest double whose f32 is at most MAX_COORD: |v| <= this is the coordinate rule on the value
 * as the f32 stores hold it, checked without rounding (1e30 itself rounds up to 1.00000002e30).
 */
export const MAX_COORD_INPUT = 9.9999997726853422e29;
