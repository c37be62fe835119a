import { runPlatformer } from "./platformer.js";

// Seed 001's level (egData) as polyhedra.
runPlatformer("polyhedra");
