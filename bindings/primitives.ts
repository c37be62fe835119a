// The seed's single-shape tests for callers that test one pair at a time (same code the TS baseline runs).
export { circleCircle, overlapShapes, pointInCircle, pointInRect, rectCircle, rectRect } from "./baseline/shapes.js";
