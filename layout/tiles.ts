// The tile part's memory contract: header fields at TILES_HEADER (layout/grid.ts) and the
// regions they point at. Compiled by both tsc and asc, so plain integer constants only.
//
// World coordinates are y-down, like the screen, Tiled and the rest of the world: cell (col, row)
// covers [col * T, (col + 1) * T) x [row * T, (row + 1) * T), row 0 is the top row (the first line
// of an ASCII map, Tiled's first row), T = P_TILE. Cell index = row * cols + col. A point looked up
// in the map (collision points, the controller's, flagsAt) that lies exactly on the line between two
// rows counts in the row above it, the smaller row: the tower seed is y-up, and this is its rule
// mirrored, which keeps feet resting on a floor in the empty cell above the floor and the seed's
// "under" points, a pixel below the feet, in the floor. Columns: a point on a line counts in the
// column to its right. Swept boxes need no such rule (touching a cell is not entering it).
// Boxes (moveBoxes, monsters) are (x, y, w, h) with (x, y) the top-left corner, as rects everywhere
// in hitcore. Coordinates are f64 in both kernels, so the wasm cores and the js backend compute
// bit-identical results without rounding each step to f32.
//
// Header: one i32 per field at TILES_HEADER + 4 * field. The facade writes all of them.
//
//   field            meaning
//   T_COLS, T_ROWS   map size in cells
//   T_WRAP           1: x wraps around (the tower), 0: columns outside the map are solid walls
//   T_FLOOR          1: rows below the map (row >= rows) are solid ground, 0: empty; rows above it (row < 0) are always empty
//   T_CELLS          u8[cols * rows]      CELL_* flags per cell
//   T_MON_HEAD       i32[cols * rows]     first monster in the cell, NO_MONSTER if none
//   T_MON_NEXT       i32[MON_CAP]         next monster in the same cell (any number per cell)
//   T_MON_BOX        f64[4 * MON_CAP]     monster boxes (x, y, w, h), top-left corner; w, h <= T
//   T_MON_LIVE       u8[MON_CAP]          1 for a live monster
//   T_MON_CAP        monster slots
//   T_PARAMS         f64[PARAM_COUNT]     tile size, coin width and the controller's tuning (P_*)
//   T_POINTS         f64[2 * POINT_CAP]   collision points (dx, dy) relative to an entity's origin (+dy: below it)
//   T_POINT_COUNT    points in use (<= POINT_CAP)
//   T_ENT_X, T_ENT_Y f64[ENT_CAP]         entity origins for collidePoints
//   T_ENT_CAP        entity slots
//   T_OUT_CELL       i32[ENT_CAP * POINT_CAP]  cell index per (entity, point), OUTSIDE if off the map
//   T_OUT_HITS       u8[ENT_CAP * POINT_CAP]   HIT_* per (entity, point)
//   T_OUT_MONSTER    i32[ENT_CAP * POINT_CAP]  lowest monster id whose box holds the point, or NO_MONSTER
//   T_BOXES          f64[BOX_FIELDS * BOX_CAP] moving boxes (x, y, w, h, dx, dy) for moveBoxes, (x, y) top-left
//   T_BOX_HITS       u8[BOX_CAP]               CONTACT_* of the last moveBoxes
//   T_BOX_CAP        box slots
//   T_CTL_F          f64[CTL_F_FIELDS * CTL_CAP]  controller reals (CF_*); origin: the middle of the feet
//   T_CTL_I          i32[CTL_I_FIELDS * CTL_CAP]  controller integers (CI_*)
//   T_CTL_CAP        controller slots
//   S_T_*            written by the kernels: what the last call visited
//
// Scratch (f64, at TILES_HEADER + TILES_SCRATCH + 8 * slot, past the fields above and within the
// part's PART_HEADER_FIELDS): the doubles one kernel call hands from function to function, valid
// only during that call. The js backend keeps them in memory rather than in module variables or
// arguments: V8 boxes a double stored in a module variable, or passed to or returned from a
// function it does not inline, a heap allocation each time.
//   X_QX, X_QY       the point whose cell has a coin or a monster near (exactHits' box checks)
//   X_DT             the controller step's dt
//   X_OLD_Y          the stepped controller's y before its move (sweepFall)
export const T_COLS = 0;
export const T_ROWS = 1;
export const T_WRAP = 2;
export const T_FLOOR = 3;
export const T_CELLS = 4;
export const T_MON_HEAD = 5;
export const T_MON_NEXT = 6;
export const T_MON_BOX = 7;
export const T_MON_LIVE = 8;
export const T_MON_CAP = 9;
export const T_PARAMS = 10;
export const T_POINTS = 11;
export const T_POINT_COUNT = 12;
export const T_ENT_X = 13;
export const T_ENT_Y = 14;
export const T_ENT_CAP = 15;
export const T_OUT_CELL = 16;
export const T_OUT_HITS = 17;
export const T_OUT_MONSTER = 18;
export const T_BOXES = 19;
export const T_BOX_HITS = 20;
export const T_BOX_CAP = 21;
export const T_CTL_F = 22;
export const T_CTL_I = 23;
export const T_CTL_CAP = 24;

export const S_T_CELLS_VISITED = 40; // cells read by the last call
export const S_T_MONSTER_TESTS = 41; // monster box tests of the last call
export const S_T_ITERATIONS = 42; // controller: collision-check rounds of the last step

export const TILES_SCRATCH = 256;
export const X_QX = 0;
export const X_QY = 1;
export const X_DT = 2;
export const X_OLD_Y = 3;

export const POINT_CAP = 16;
export const NO_MONSTER = -1;
export const OUTSIDE = -1;

// Cell flags (u8): three of the seed's plus room for more.
export const CELL_PLATFORM = 1;
export const CELL_LADDER = 2;
export const CELL_COIN = 4;
export const CELL_ONE_WAY = 8; // blocks only what comes down onto it from above
export const CELL_SPIKE = 16; // reported; the controller treats it like a monster (hurts)
// Owned by the facade: some monster's box touches this cell, so the core searches the cells around
// a point for monsters only where this bit is set (most points on a big map skip the search).
export const CELL_MONSTER_NEAR = 128;

// Hit flags per collision point (u8).
export const HIT_BLOCKED = 1; // the cell is a platform (or a wall / the floor outside the map)
export const HIT_LADDER = 2;
export const HIT_COIN = 4; // inside the coin's box, not only its cell (the seed's extra check)
export const HIT_MONSTER = 8; // inside a monster's box
export const HIT_ONE_WAY = 16;
export const HIT_SPIKE = 32;

// Contacts of moveBoxes (u8).
export const CONTACT_LEFT = 1;
export const CONTACT_RIGHT = 2;
export const CONTACT_DOWN = 4; // touched something below (at larger y)
export const CONTACT_UP = 8; // touched something above (at smaller y)

export const BOX_FIELDS = 6; // x, y, w, h, dx, dy

// Parameters (f64 at T_PARAMS + 8 * P_*). Speeds in units/s, forces in units/s^2.
export const P_TILE = 0;
export const P_COIN_W = 1;
export const P_W = 2; // controller box width
export const P_H = 3; // controller box height
export const P_MAXDX = 4;
export const P_MAXDY = 5;
export const P_CLIMBDY = 6; // climbing speed: Up moves -y, Down +y
export const P_GRAVITY = 7; // pulls +y (down)
export const P_IMPULSE = 8; // a jump's one-frame force, -y (up)
export const P_ACCEL = 9;
export const P_FRICTION = 10;
export const P_SURFACE = 11; // nearRowSurface: how far below a row's top a foot may be and still land
export const P_LADDER_EDGE = 12; // nearColCenter limit, in half columns
export const P_FALLING_JUMP = 13; // frames of jump grace after walking off an edge
export const P_STEP_FRAMES = 14; // frames a step up takes
export const P_HURT_FRAMES = 15; // frames of immunity after a hurt
export const P_COIN_SCORE = 16;
// Derived by the core from the fields above at the start of each call (the facade leaves them).
export const P_TILE_INV = 17; // 1 / tile size when exact, else 0
export const P_MAP_WIDTH = 18; // cols * tile size
export const P_COIN_HALF = 19; // half the coin width
export const P_EDGE_EPS = 20; // the edge tolerance of swept boxes, a fraction of the tile size
export const PARAM_COUNT = 24;

// Controller reals (f64 at T_CTL_F + 8 * (CTL_F_FIELDS * i + CF_*)).
export const CF_X = 0; // the middle of the feet: the box spans x - w/2 .. x + w/2 and y - h .. y
export const CF_Y = 1;
export const CF_DX = 2;
export const CF_DY = 3;
export const CF_STEP_Y = 4; // where the current step up ends (the step's top)
export const CF_PREV_Y = 5; // CF_Y at the start of the last step (the world's controllerContacts reads it)
export const CF_PREV_DY = 6; // CF_DY at the start of the last step
export const CTL_F_FIELDS = 7;

// Controller integers (i32 at T_CTL_I + 4 * (CTL_I_FIELDS * i + CI_*)).
export const CI_STATE = 0; // ST_* bits
export const CI_INPUT = 1; // IN_* bits, written by the caller each frame (the jump bit is consumed)
export const CI_FALLING_JUMP = 2; // frames of grace left
export const CI_STEPPING = 3; // -1, 0 or 1: direction of the step up in progress
export const CI_STEP_COUNT = 4; // frames of the step left
export const CI_HURTING = 5; // frames of immunity left (0: not hurting)
export const CI_SCORE = 6;
export const CI_HITS = 7; // monster / spike hits taken
export const CI_EVENTS = 8; // EV_* of the last step
export const CTL_I_FIELDS = 9;

export const ST_LIVE = 1;
export const ST_FALLING = 2;
export const ST_CLIMBING = 4;

export const EV_COIN = 1;
export const EV_LANDED = 2;
export const EV_HEAD = 4;
export const EV_WALL = 8;
export const EV_STEP = 16;
export const EV_CLIMB = 32;
export const EV_FALL = 64;
export const EV_HURT = 128;
export const EV_JUMP = 256;

/** Rounds of collision checks per controller step at most (each resolves one contact). */
export const MAX_ITERATIONS = 32;
/** Spans and contacts use this tolerance (in tiles) so a box snapped to a tile edge stays outside it. */
export const EDGE_EPS_NUM = 1; // EDGE_EPS = EDGE_EPS_NUM / EDGE_EPS_DEN tiles
export const EDGE_EPS_DEN = 1000000000;
