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

/** Contacts one body may resolve in one moveBodies call (a slide into a corner takes two). */
export const MOVE_ITERATIONS = 4;

/** moveBodies' refusal codes, in the header's S_INVALID (the slot in S_FIRST_INVALID). */
export const MOVE_BAD_NUMBER = 1; // a position, size or velocity is not finite
export const MOVE_TOO_LARGE = 2; // a body is larger than the platforms' grid radius covers
