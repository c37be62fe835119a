// The worker side of a world driven from a module worker: the worker's script calls
// `serveWorld(program)`, and the page's WorldWorker (bindings/world_worker.ts) creates the world,
// loads levels into it and sends each step's input. After each step the chosen views are copied
// into a frame, one `set` per view, and the frame goes back: a SharedArrayBuffer named by index on
// a cross-origin isolated page, else an ArrayBuffer transferred (two circulate, so the worker
// writes one while the page reads the other).

import { createWorld } from "./browser.js";

export * from "./browser.js";
import type { World } from "./world.js";
import { HitcoreError } from "./validate.js";
import { FRAME_FIELDS, FRAME_HEADER, FRAME_RESULTS, frameLayout, type FrameField, type FromWorker, type ToWorker } from "./world_worker.js";

/** What the game runs in the worker. */
export interface WorldProgram<Setup = unknown, Input = unknown> {
  /** Builds the scene in the new world (bodies, parts), from WorldWorker's `setup`. */
  setup?(world: World, setup: Setup): void | Promise<void>;
  /**
   * One step, from the input the page sent: move things, query, respond. Numbers written to
   * `results` (8 of them, zeroed before the step) reach the page in the frame.
   */
  step(world: World, input: Input, results: Float64Array): void;
}

/** The scope a worker's script runs in, as far as serveWorld uses it. */
interface Scope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
}

/**
 * Serves one world to the page's WorldWorker from this module worker, running `program`. Call it
 * once, at the top level of the worker's script.
 */
export function serveWorld<Setup, Input>(program: WorldProgram<Setup, Input>, scope: Scope = globalThis as unknown as Scope): void {
  let world: World | null = null;
  let fields: FrameField[] = [];
  let offsets: number[] = [];
  let capacity = 0, bytes = 0, steps = 0;
  let shared: SharedArrayBuffer[] | null = null;
  const free: ArrayBuffer[] = [];
  const post = (message: FromWorker, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

  function writeFrame(world: World, buffer: ArrayBufferLike): void {
    const count = world.count;
    if (count > capacity) throw new HitcoreError("CAPACITY", `WorldWorker: the world holds ${count} bodies, more than the ${capacity} its frames hold. Start the WorldWorker with a larger world.capacity.`);
    fields.forEach((f, k) => new FRAME_FIELDS[f](buffer as ArrayBuffer, offsets[k], capacity).set(world[f].subarray(0, count)));
    const header = new Float64Array(buffer, 0, FRAME_HEADER);
    header[0] = steps;
    header[1] = count;
  }

  scope.onmessage = async ({ data }) => {
    try {
      if (data.op === "create") {
        if (world) throw new HitcoreError("INVALID_OPTION", "serveWorld: this worker already serves a world. Start another worker for another world.");
        ({ fields, shared, frameCapacity: capacity } = data);
        ({ offsets, bytes } = frameLayout(fields, capacity));
        const made = await createWorld(data.options);
        await program.setup?.(made, data.setup as Setup);
        world = made;
        if (!shared) free.push(new ArrayBuffer(bytes), new ArrayBuffer(bytes));
        post({ op: "ready" });
      } else if (data.op === "level") {
        if (!world) throw new HitcoreError("INVALID_OPTION", "serveWorld: loadLevel before the world was created.");
        world.loadLevel(data.level as Parameters<World["loadLevel"]>[0]);
        post({ op: "level" });
      } else if (data.op === "step") {
        if (!world) throw new HitcoreError("INVALID_OPTION", "serveWorld: step before the world was created.");
        if (data.frame) free.push(data.frame);
        const index = steps & 1;
        const buffer = shared ? shared[index] : free.pop() ?? new ArrayBuffer(bytes);
        const results = new Float64Array(buffer, FRAME_HEADER * 8, FRAME_RESULTS);
        results.fill(0);
        program.step(world, data.input as Input, results);
        steps++;
        writeFrame(world, buffer);
        if (shared) post({ op: "frame", index, frame: null });
        else post({ op: "frame", index, frame: buffer as ArrayBuffer }, [buffer as ArrayBuffer]);
      }
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      post({ op: "error", code: typeof e.code === "string" ? e.code : "WORKER_FAILED", message: String(e.message ?? err) });
    }
  };
}
