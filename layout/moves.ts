// The cross-part calls' memory contract: bodies (the grid's stores, layout/grid.ts) moved and cast
// against every part of the level in one call. Compiled by both tsc and asc: integer constants only.
//
// The bodies' header (HEADER, layout/grid.ts) gives the moves four fields:
//   H_VX, H_VY   f32[CAPACITY + 1]   velocity per slot, in units per call (written by the game)
//   H_HIT_I      i32[3 * (CAPACITY + 1)]  the first hit of the last moveBodies, three planes:
//                part (PART_*), shape (cell, instance, surface or polyhedron id; -1 if none), rect
//                (the prefab rect of a rect-level hit, else -1)
//   H_HIT_F      f32[3 * (CAPACITY + 1)]  three planes: t (fraction of the move before the hit, 1 if
//                none), nx, ny (unit normal of what was hit, pointing back at the body; 0, 0 when the
//                body started inside it)
export const H_VX = 60;
export const H_VY = 61;
export const H_HIT_I = 62;
export const H_HIT_F = 63;

// The world's header (WORLD_HEADER, layout/grid.ts): casts against every part of the level.
//   W_CASTS        f32[CAST_IN * W_CAST_CAP]   castMany's casts: x, y, dx, dy, a, b per cast (a: the
//                  radius of a circle or half width of a box; b: a box's half height)
//   W_CAST_CAP     casts the regions hold
//   W_CAST_HIT_I   i32[3 * W_CAST_CAP]   per cast: part, shape, rect of the closest hit
//   W_CAST_HIT_F   f32[3 * W_CAST_CAP]   per cast: t, nx, ny (t = 1 and part PART_NONE on a miss)
//   W_ONE_*        the last castLevel's hit: t, nx, ny (f64, two fields each), part, shape, rect
//   W_OVERLAP      u32[3 * (CAPACITY + 1)]   overlapLevel's three planes per body slot (CAPACITY: the
//                  bodies' H_CAPACITY; laid out by the facade at the first overlapLevel, relaid with
//                  the bodies): parts (bit 1 << PART_* for each part the body overlaps), cells (the OR
//                  of the tile flags of the cells it overlaps, CELL_MONSTER_NEAR left out), shape (i32:
//                  the first shape it overlaps, in part order, -1 if none). The grid's header has no
//                  free field, so the pointer lives here.
export const W_CASTS = 0;
export const W_CAST_CAP = 1;
export const W_CAST_HIT_I = 2;
export const W_CAST_HIT_F = 3;
export const W_ONE_T = 4; // f64
export const W_ONE_NX = 6; // f64
export const W_ONE_NY = 8; // f64
export const W_ONE_PART = 10;
export const W_ONE_SHAPE = 11;
export const W_ONE_RECT = 12;
export const W_OVERLAP = 13;
// The level grid (bindings/level_grid.ts): one byte per cell over the level's static shapes, built
// by the facade when the level changed, so that a body's sweep skips the parts with nothing near.
//   W_LEVEL_CELLS  u8[cols * rows]   LEVEL_* bits of the shapes whose boxes meet the cell, row by row
//   W_LEVEL_COLS, W_LEVEL_ROWS       0 cols: no grid (every part present is cast)
//   W_LEVEL_ALWAYS LEVEL_* bits cast whatever the cells say (unbounded polyhedra)
//   W_LEVEL_OX, W_LEVEL_OY, W_LEVEL_INV   f64: the grid's origin and 1 / cell size
export const W_LEVEL_CELLS = 16;
export const W_LEVEL_COLS = 17;
export const W_LEVEL_ROWS = 18;
export const W_LEVEL_ALWAYS = 19;
export const W_LEVEL_OX = 20; // f64
export const W_LEVEL_OY = 22; // f64
export const W_LEVEL_INV = 24; // f64
//   W_LEVEL_RLISTS i32[cols * rows + 1] then i32[]: per cell, the rect instances whose master box
//                  meets it (ascending), as starts then items; W_LEVEL_RLISTED is 0 when there are none
export const W_LEVEL_RLISTS = 26;
export const W_LEVEL_RLISTED = 27;
// moveBodies' responses by group (Response.ByGroup), indexed by group bit 0..31:
//   W_RESPONSES    i32[32]   RESPONSE_* (0, stop, unless set)
//   W_RESTITUTIONS f32[32]   the restitution of a bounce
export const W_RESPONSES = 32;
export const W_RESTITUTIONS = 64;
export const WORLD_FIELDS = 96;
// The bodies' regions whose pointers the bodies' header has no field for (fields past the
// controllers' scratch, layout/contacts.ts). The core reads none of them: the facade
// (bindings/world.ts) copies answers out of the core's regions and swaps the probe grid in.
//   W_PAIRS_OUT    i32[2 * PAIRS_CAP]   the pairs of the last pair query that answered (world.pairs):
//                  the core writes a call's pairs to H_PAIRS, and the facade copies them here once
//                  the call answers, so that a call refused late leaves them as they were
//   W_PROBE_BOX .. W_PROBE_LARGE   the probe grid that buildGrid builds and the probe queries read,
//                  laid out at the first buildGrid as H_BOX, H_SEL, H_CELLS, H_ENTRIES and H_LARGE
//                  are (the facade points those fields at it around such a call); the pair queries
//                  build theirs in H_BOX .. H_HOME and leave it alone
export const W_PAIRS_OUT = 114;
export const W_PROBE_BOX = 115;
export const W_PROBE_SEL = 116;
export const W_PROBE_CELLS = 117;
export const W_PROBE_ENTRIES = 118;
export const W_PROBE_LARGE = 119;
/** Level grid bits: a rect instance's master box meets the cell; a surface's or polyhedron's reach box does. */
export const LEVEL_RECTS = 1;
export const LEVEL_PLATFORMS = 2;
/** Cells one sweep reads in the level grid at most; a longer sweep casts every part. */
export const LEVEL_MOST_CELLS = 32;
/** Cells one rect sweep gathers its candidates from at most; a longer one asks the quadtree. */
export const LEVEL_LIST_CELLS = 9;
export const CAST_IN = 6;
export const CAST_HIT = 3;

/** What a hit is on. */
export const PART_NONE = 0;
export const PART_TILES = 1;
export const PART_RECTS = 2;
export const PART_SURFACES = 3;
export const PART_POLYHEDRA = 4;

/** What a body does at its first hit. */
export const RESPONSE_STOP = 0; // stops at the contact; its velocity becomes 0
export const RESPONSE_SLIDE = 1; // goes on along the surface with the rest of its move; the velocity loses its normal part
export const RESPONSE_BOUNCE = 2; // ricochets: the normal part of the move and the velocity reverse, scaled by the restitution
export const RESPONSE_BY_GROUP = 3; // each body as the world's table says for its lowest group bit in the call's mask

/** The parts of the level a cross-part call sweeps against (bits; the facade picks them by the parts' groups). */
export const PARTS_TILES = 1;
export const PARTS_RECTS = 2;
export const PARTS_SURFACES = 4;
export const PARTS_POLYHEDRA = 8;
export const PARTS_ALL = 15;

/** Contacts one body may resolve in one moveBodies call (a slide into a corner takes two). */
export const MOVE_ITERATIONS = 4;

/** What a cast sweeps: a point, a box (half extents a, b) or a circle (radius a), centred on x, y. */
export const SWEEP_POINT = 0;
export const SWEEP_BOX = 1;
export const SWEEP_CIRCLE = 2;

/** moveBodies' refusal codes, in the header's S_INVALID (the slot in S_FIRST_INVALID). */
export const MOVE_BAD_NUMBER = 1; // a position, size or velocity is not finite
export const MOVE_TOO_LARGE = 2; // a body is larger than the platforms' grid radius covers
