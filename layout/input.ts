// The input bits a game writes for its characters each frame: one set for the rect level's
// four-sensor characters (RH_CINPUT, layout/rects.ts) and the tile map's controllers (CI_INPUT,
// layout/tiles.ts), exported as `Input` (bindings/world.ts). Compiled by both tsc and asc: plain
// integer constants only. The rect level's characters read Left, Right and Jump; the tile map's
// controllers all five (Up and Down climb ladders; Jump is consumed by the step that reads it).
export const IN_LEFT = 1;
export const IN_RIGHT = 2;
export const IN_UP = 4;
export const IN_DOWN = 8;
export const IN_JUMP = 16;
