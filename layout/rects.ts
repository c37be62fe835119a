// The memory contract of the rects part (prefabs, instances, quadtree, characters, casts) between
// bindings/rect_level.ts and the core (assembly/rect_level.ts, characters.ts, casts.ts).
// Compiled by both tsc and asc: plain integer constants only.
//
// Header: one 4-byte field per slot at RECTS_HEADER + 4 * field (layout/grid.ts). Pointers and
// counts are written by the facade; config fields hold f32 bits; stats are written by the kernel.
//
//   field              type   size                 meaning
//   RH_PREFAB_START    ptr    i32[P + 1]           first rect of each prefab; prefab p owns [start[p], start[p+1])
//   RH_PREFAB_BOX      ptr    f32[4P]              union of the prefab's rects in prefab space (x0, y0, x1, y1)
//   RH_RECTS           ptr    f32[4R]              prefab rects in prefab space (x, y, w, h): stored once per prefab
//   RH_INST_PREFAB     ptr    i32[I]               prefab of each instance
//   RH_INST_X, _Y      ptr    f32[I]               translation of each instance
//   RH_INST_FLAGS      ptr    i32[I]               MIRROR_X | MIRROR_Y
//   RH_INST_BOX        ptr    f64[4I]              master box of each instance in world space (kernel, at build)
//   RH_NODE_BOX        ptr    f64[4N]              quadtree node boxes, N = (4^(D+1) - 1) / 3 (kernel, at build)
//   RH_NODE_START      ptr    i32[N + 1]           first item of each node (counting sort of instances by node)
//   RH_NODE_SUB        ptr    i32[N]               instances in each node's subtree (empty subtrees are skipped)
//   RH_ITEMS           ptr    i32[I]               instance indices grouped by node
//   RH_INST_NODE       ptr    i32[I]               scratch: node of each instance
//   RH_STACK           ptr    i32[STACK_CAP]       scratch: traversal stack
//   RH_CANDS           ptr    i32[I]               scratch: candidate instances of one character or cast
//   RH_RESULTS         ptr    i32[I]               output: instances found by queryBox
//   RH_CX .. RH_CVY    ptr    f32[C]               characters: top-left x, y, width, height, velocity (per frame)
//   RH_CKIND           ptr    i32[C]               CHAR_NONE (free), CHAR_PLAYER, CHAR_ENEMY
//   RH_CINPUT          ptr    i32[C]               IN_LEFT | IN_RIGHT | IN_JUMP (layout/input.ts), written by the game each frame
//   RH_CSTATE          ptr    i32[C]               ST_* flags written by the step
//   RH_CGRACE          ptr    i32[C]               grace frames left (jump still allowed, extra downward pull)
//   RH_STOMPS          ptr    i32[2C]              output: (stomper, victim) character pairs of the last step
//   RH_CPREV           ptr    f32[2C]              y and vy of each character at the start of the last step (the
//                                                  world's controllerContacts reads them)
//   RH_PX .. RH_PR     ptr    f32[Q]               projectiles: centre x, y, velocity x, y (per frame), radius
//   RH_PFLAGS          ptr    i32[Q]               output: PF_HIT when the projectile hit a rect this frame
//   RH_CAST_OUT        ptr    f64[CAST_OUT_WORDS]  output of the last cast: t, nx, ny, x, y
//   counts, config, stats: see the constants below.
// RECTS_HEADER of layout/grid.ts (no import: tsc wants "./layout.js", asc wants "./layout";
// tests/rect_level.test.ts checks the two agree).
export const RH = 1024;
export const RH_FIELDS = 96;

export const RH_PREFABS = 0; // prefab count
export const RH_RECT_COUNT = 1;
export const RH_INSTANCES = 2;
export const RH_CHARS = 3; // character slots in use
export const RH_DEPTH = 4; // quadtree depth D of the last build (-1 when none)
export const RH_PREFAB_START = 5;
export const RH_PREFAB_BOX = 6;
export const RH_RECTS = 7;
export const RH_INST_PREFAB = 8;
export const RH_INST_X = 9;
export const RH_INST_Y = 10;
export const RH_INST_FLAGS = 11;
export const RH_INST_BOX = 12;
export const RH_NODE_BOX = 13;
export const RH_NODE_START = 14;
export const RH_NODE_SUB = 15;
export const RH_ITEMS = 16;
export const RH_INST_NODE = 17;
export const RH_STACK = 18;
export const RH_CANDS = 19;
export const RH_RESULTS = 20;
export const RH_CX = 21;
export const RH_CY = 22;
export const RH_CW = 23;
export const RH_CH = 24;
export const RH_CVX = 25;
export const RH_CVY = 26;
export const RH_CKIND = 27;
export const RH_CINPUT = 28;
export const RH_CSTATE = 29;
export const RH_CGRACE = 30;
export const RH_STOMPS = 31;
export const RH_PX = 32;
export const RH_PY = 33;
export const RH_PVX = 34;
export const RH_PVY = 35;
export const RH_PR = 36;
export const RH_PFLAGS = 37;
export const RH_CAST_OUT = 38;
export const RH_CAST_INSTANCE = 39; // written by a cast: instance hit, -1 for none
export const RH_CAST_RECT = 40; // written by a cast: global rect index hit, -1 for none
export const RH_CPREV = 41;

// Character config (f32 bits), shared by every character of a level.
export const RC_GRAVITY = 48;
export const RC_MAX_FALL = 49;
export const RC_RUN_SPEED = 50;
export const RC_JUMP_SPEED = 51;
export const RC_EXTRA_PULL = 52;
export const RC_GRACE_FRAMES = 53; // i32
export const RC_SENSOR_TOP = 54; // height of the top (head) sensor
export const RC_SENSOR_BOTTOM = 55; // height of the bottom (feet) sensor
export const RC_STEP_HEIGHT = 56; // side sensors stop this far above the feet: lower steps are climbed
export const RC_INSET = 57; // top and bottom sensors are this much narrower on each side
export const RC_BOUNCE = 58; // upward speed after a stomp

// Stats of the last call (what it visited, Box2D's b2TreeStats idea).
export const RS_NODES = 64; // quadtree nodes classified (one step each: which quadrants does the box reach?)
export const RS_INSTANCE_TESTS = 65; // master boxes of instances tested
export const RS_RECT_TESTS = 66; // sensor (or cast) against prefab rect tests
export const RS_FOUND = 67; // instances found (queryBox), hits (casts, projectiles), stomps (characters)
export const RS_CHAR_TESTS = 68; // character against character tests (stomps)

export const MIRROR_X = 1;
export const MIRROR_Y = 2;

export const CHAR_NONE = 0;
export const CHAR_PLAYER = 1;
export const CHAR_ENEMY = 2;

export const ST_GROUNDED = 1; // the bottom sensor stands on a rect
export const ST_LANDED = 2; // grounded now, not the frame before
export const ST_HEAD_BUMP = 4; // the top sensor hit a rect while moving up: upward speed cancelled
export const ST_WALL_LEFT = 8; // the left sensor was pushed out of a rect
export const ST_WALL_RIGHT = 16;
export const ST_STOMPED = 32; // an enemy whose master box a player's bottom sensor hit while falling
export const ST_STOMPING = 64; // a player that stomped an enemy this frame (and bounced)
export const ST_HURT = 128; // a player whose master box touched an enemy without stomping it
export const ST_JUMPED = 256; // a jump started this frame

export const PF_HIT = 1; // the projectile's path hit a rect this frame: clipped there, velocity reflected
export const PF_INSIDE = 2; // the projectile started inside a rect: left where it was

export const CAST_SEGMENT = 0; // a point moving along the segment
export const CAST_BOX = 1; // a box (half extents a, b) centred on the point
export const CAST_CIRCLE = 2; // a circle (radius a) centred on the point
export const CAST_OUT_WORDS = 8;

// How a call finds the instances near a box: the seed's three stages.
export const SEARCH_FLAT = 0; // every rect of every instance (no hierarchy: 16 x 8 x 4 = 512 in the seed's example)
export const SEARCH_BOXES = 1; // master box of every instance, then the rects of those that overlap
export const SEARCH_TREE = 2; // the quadtree, then master boxes, then rects (about 35 in the seed's example)

export const MAX_DEPTH = 8; // quadtree depth cap: 4^8 leaves
export const STACK_CAP = 64; // traversal stack: at most 3 per level plus one
