// The platforms part's memory contract (surfaces of seed 000, halfspace polyhedra of seed 001,
// balls): its header fields at PLATFORMS_HEADER and the records its regions hold. Compiled by both
// tsc and asc, so plain integer constants only.
//
// Header: one 4-byte field per slot at PLATFORMS_HEADER + 4 * field. The facade writes pointers,
// counts, the static grid and the step parameters; a kernel writes the stats and the cast result.
//
//   field               type  written by  meaning
//   P_SURFACES          i32   facade      SURF_STRIDE x f32 per surface (record below)
//   P_SURF_COUNT        i32   facade      surfaces held
//   P_HALFSPACES        i32   facade      HS_STRIDE x f32 per halfspace: nx, ny, offset, unused
//   P_POLY_START        i32   facade      i32[POLY_COUNT + 1]: first halfspace of each polyhedron, then the end
//   P_POLY_COUNT        i32   facade      polyhedra held
//   P_GRID_COLS, _ROWS  i32   facade      static grid shape; cell index = row * cols + col; index cols * rows
//                                         is the "outside" cell (points beyond the grid)
//   P_GRID_OX, _OY      f32   facade      grid origin (min corner)
//   P_GRID_INV          f32   facade      1 / cell size
//   P_GRID_RADIUS       f32   facade      largest ball radius the cell lists cover (balls above it are skipped)
//   P_SURF_CELLS        i32   facade      i32[cells + 2]: start of each cell's run in P_SURF_ITEMS, then the end
//   P_SURF_ITEMS        i32   facade      i32[]: surface ids by cell, ascending within a cell
//   P_POLY_CELLS        i32   facade      i32[cells + 2]: as P_SURF_CELLS, for polyhedra
//   P_POLY_ITEMS        i32   facade      i32[]: polyhedron ids by cell, ascending (unbounded ones in every cell)
//   P_BX .. P_BR        i32   facade      f32[BALL_CAP] each: x, y, vx, vy, ax, ay, radius of every ball
//   P_BALL_COUNT        i32   facade      balls held
//   P_RESULTS, _CAP     i32   facade      i32[RESULTS_CAP]: ids written by touchSurfaces / insidePolyhedra
//   P_RES_X, P_RES_Y    f32   facade      the seed's `resistance`: velocity factor per step (0.95, 1)
//   P_MAX_SUBSTEPS      i32   facade      most sub-steps per ball per step (speed is capped to fit them)
//   P_EXACT             i32   facade      1: surfaces use the exact rounded region; 0: the seed's trapezium
//   P_POLY_EXTENT       i32   facade      f32[4 * POLY_COUNT]: min x, min y, max x, max y of each polyhedron
//                                         (+-Infinity where it is unbounded): the box axes of swept-box casts
//   P_BALL_PREV_Y, _VY  i32   facade      f32[BALL_CAP] each: y and vy of each ball at the start of the last step
//                                         (stepBalls copies them; the world's controllerContacts reads them)
//   P_BALL_LAST_Y       i32   facade      f32[BALL_CAP]: each ball's y before its last move (one-way tiles; stepBalls)
//   P_BALL_HIT_PART     i32   facade      i32[BALL_CAP]: the part (PART_TILES, PART_RECTS) of each ball's last contact
//                                         with a tile cell or rect in the last step, PART_NONE if none (stepBalls, in a
//                                         world with a tile map or rect instances)
//   P_BALL_HIT_SHAPE    i32   facade      i32[BALL_CAP]: its cell index (-1: the walls or floor around the map) or rect
//                                         instance; -1 if none
//   P_REACH_BOXES       i32   facade      f32[4 * (SURF_COUNT + POLY_COUNT)]: each surface's, then each
//                                         polyhedron's reach box (min x, min y, max x, max y; rounded
//                                         outward; +-Infinity where unbounded): where the centre of a body
//                                         up to the grid radius can be at contact, the box the grid lists
//                                         it by. A cast skips the items whose box its centre's path misses.
//   S_CANDIDATES        i32   kernel      surfaces + polyhedra the last call tested
//   S_CONTACTS          i32   kernel      surfaces + polyhedra the last call found touching
//   S_SUBSTEPS          i32   kernel      sub-steps the last step ran (all balls)
//   S_SKIPPED           i32   kernel      balls the last step skipped (non-finite data, radius out of range)
//   C_T .. C_NY         f32   kernel      last cast's hit: fraction of the path, centre at contact, normal
//   C_PART, C_ID        i32   kernel      last cast's hit: PART_SURFACES or PART_POLYHEDRA (PART_NONE after a
//                                         miss; layout/moves.ts), and its id (-1 after a miss)
//
// Scratch (f64, at PLATFORMS_HEADER + PLATFORMS_SCRATCH + 8 * slot, past the fields above and
// within the part's PART_HEADER_FIELDS): the doubles one kernel call hands from function to
// function, valid only during that call. The js backend keeps them in memory rather than in
// module variables or arguments: V8 boxes a double stored in a module variable, or passed to or
// returned from a function it does not inline, a heap allocation each time. A point is two
// consecutive slots, x then y (cellOf reads one by its first slot).
//   X_BALL_X .. _R      the ball being resolved: position, velocity, radius (a point query's x, y, r)
//   X_CAST_X, _Y        the current cast: start of the centre
//   X_CAST_X1, _Y1      its end
//   X_CAST_DX .. _R     its move (end - start) and circle radius
//   X_BOX_HW, _HH       half extents of the current swept box
//   X_BEST_T .. _NY     best hit of the current cast: fraction of the move, normal
//   X_SUB_Y             the ball's y before its last move (one-way tiles; P_BALL_LAST_Y between steps)
//   X_BOX_X0 .. _Y1     the tile cell or rect the ball is being resolved against (ball_boxes.ts)
//   X_PROBE_X, _Y       the point a seam test looks up (ball_boxes.ts)
//   X_NEAR_X0 .. _Y1    a rect the seam test reads (ball_boxes.ts)
//   X_PATH_X0 .. _Y1    the box of the current cast's centre path (min x, min y, max x, max y)
//
// Surface record (SURF_STRIDE f32, 64 bytes), the seed's `lineToSurface` for p0 -> p1 mirrored
// for y-down coordinates (bindings/platforms.ts):
//   0 nx, 1 ny       unit normal (dy, -dx) / |d| for d = p1 - p0: left of the direction as drawn
//   2 o              offset n . p1
//   3 n0x, 4 n0y     bound normal at p0: rotate315(n) (the seed's rotate45, mirrored)
//   5 c0             n0 . p0 (the bound's offset is c0 + r / sqrt 2 for a ball of radius r)
//   6 n1x, 7 n1y     bound normal at p1: rotate45(n) (the seed's rotate315, mirrored)
//   8 c1             n1 . p1
//   9 x0, 10 y0, 11 x1, 12 y1   the endpoints (exact region, casts)
//   13..15           unused
export const P_SURFACES = 0;
export const P_SURF_COUNT = 1;
export const P_HALFSPACES = 2;
export const P_POLY_START = 3;
export const P_POLY_COUNT = 4;
export const P_GRID_COLS = 5;
export const P_GRID_ROWS = 6;
export const P_GRID_OX = 7;
export const P_GRID_OY = 8;
export const P_GRID_INV = 9;
export const P_GRID_RADIUS = 10;
export const P_SURF_CELLS = 11;
export const P_SURF_ITEMS = 12;
export const P_POLY_CELLS = 13;
export const P_POLY_ITEMS = 14;
export const P_BX = 15;
export const P_BY = 16;
export const P_BVX = 17;
export const P_BVY = 18;
export const P_BAX = 19;
export const P_BAY = 20;
export const P_BR = 21;
export const P_BALL_COUNT = 22;
export const P_RESULTS = 23;
export const P_RESULTS_CAP = 24;
export const P_RES_X = 25;
export const P_RES_Y = 26;
export const P_MAX_SUBSTEPS = 27;
export const P_EXACT = 28;
export const P_POLY_EXTENT = 29;
export const P_BALL_PREV_Y = 30;
export const P_BALL_PREV_VY = 31;
export const P_BALL_LAST_Y = 32;
export const P_BALL_HIT_PART = 33;
export const P_BALL_HIT_SHAPE = 34;
export const P_REACH_BOXES = 35;

export const S_CANDIDATES = 40;
export const S_CONTACTS = 41;
export const S_SUBSTEPS = 42;
export const S_SKIPPED = 43;

export const C_T = 50;
export const C_X = 51;
export const C_Y = 52;
export const C_NX = 53;
export const C_NY = 54;
export const C_PART = 55;
export const C_ID = 56;

export const PLATFORMS_FIELDS = 64;

export const PLATFORMS_SCRATCH = 256;
export const X_BALL_X = 0;
export const X_BALL_Y = 1;
export const X_BALL_VX = 2;
export const X_BALL_VY = 3;
export const X_BALL_R = 4;
export const X_CAST_X = 5;
export const X_CAST_Y = 6;
export const X_CAST_X1 = 7;
export const X_CAST_Y1 = 8;
export const X_CAST_DX = 9;
export const X_CAST_DY = 10;
export const X_CAST_R = 11;
export const X_BOX_HW = 12;
export const X_BOX_HH = 13;
export const X_BEST_T = 14;
export const X_BEST_NX = 15;
export const X_BEST_NY = 16;
export const X_SUB_Y = 17;
export const X_BOX_X0 = 18;
export const X_BOX_Y0 = 19;
export const X_BOX_X1 = 20;
export const X_BOX_Y1 = 21;
export const X_PROBE_X = 22;
export const X_PROBE_Y = 23;
export const X_NEAR_X0 = 24;
export const X_PATH_X0 = 28;
export const X_PATH_Y0 = 29;
export const X_PATH_X1 = 30;
export const X_PATH_Y1 = 31;

export const SURF_STRIDE = 16;
export const HS_STRIDE = 4;
