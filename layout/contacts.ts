// The memory contract of the world's controllerContacts (assembly/contacts.ts): contacts of every
// controller (balls, four-sensor characters, tile controllers) with the bodies of a group mask.
// Compiled by both tsc and asc: integer constants only.
//
// World header (WORLD_HEADER, layout/grid.ts; layout/moves.ts holds fields 0-27 and 32-95):
//   W_CONTACTS      i32[CONTACT_FIELDS * W_CONTACT_CAP]  one record per (controller, body):
//                   controller kind (CONTROLLER_*), controller index (ball id, character slot,
//                   tile controller id), body slot, CONTACT_* type; by kind, then controller,
//                   then slot ascending
//   W_CONTACT_CAP   records the region holds (a call counts the rest, and the facade grows it)
//   W_CONTACTS_OUT  i32[CONTACT_FIELDS * W_CONTACT_CAP]  the records of the last call that answered
//                   (world.contacts): the facade copies them out of W_CONTACTS, which is the core's
//                   scratch, so that a call refused while growing leaves them as they were
//
// Scratch (f64, at WORLD_HEADER + CONTACTS_SCRATCH + 8 * slot, within the header's
// PART_HEADER_FIELDS): the controller being matched, valid during one call; in memory, not module
// variables or arguments, which the js backend would box.
//   X_C_X0 .. _Y1   its box (a ball's: the circle's bounding box)
//   X_C_CX, _CY, _R a ball's centre and radius
//   X_C_PREV_BOTTOM its bottom at the start of its last step
//   X_C_PREV_VY     its vertical velocity then (> 0: falling, y grows downward)
export const W_CONTACTS = 28;
export const W_CONTACT_CAP = 29;
export const W_CONTACTS_OUT = 120; // past layout/moves.ts' W_PROBE_* fields
export const CONTACT_FIELDS = 4;

export const CONTACTS_SCRATCH = 384; // past layout/moves.ts' fields (96 x 4 bytes)
export const X_C_X0 = 0;
export const X_C_Y0 = 1;
export const X_C_X1 = 2;
export const X_C_Y1 = 3;
export const X_C_CX = 4;
export const X_C_CY = 5;
export const X_C_R = 6;
export const X_C_PREV_BOTTOM = 7;
export const X_C_PREV_VY = 8;
export const X_C_FIELDS = 9;

/** What a contact's controller is. */
export const CONTROLLER_BALL = 1; // a ball of the platforms (index: its id)
export const CONTROLLER_CHARACTER = 2; // a four-sensor character of the rect level (index: its slot)
export const CONTROLLER_TILE = 3; // a tile map controller (index: its id)

/** What a contact is. */
export const CONTACT_STOMP = 1; // falling, and its bottom was at or above the body's top before its last step
export const CONTACT_HURT = 2; // any other touch of a body not in the pick-up mask
export const CONTACT_PICK_UP = 3; // the body is in the pick-up mask
