// Types for box-intersect 1.x (it ships none): the two call forms its README documents.
declare module "box-intersect" {
  type Box = ArrayLike<number>;
  /** All pairs among `boxes`; a callback returning anything but undefined stops the search. */
  function boxIntersect(boxes: Box[], visit: (i: number, j: number) => unknown): unknown;
  /** All (red, blue) pairs. */
  function boxIntersect(red: Box[], blue: Box[], visit: (i: number, j: number) => unknown): unknown;
  export default boxIntersect;
}
