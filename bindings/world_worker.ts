// A world driven from a module worker, seen from the page: WorldWorker starts the world there
// (`serveWorld` in bindings/worker.ts runs the game's step program beside it), sends each step's
// input, and reads back the views the page draws from in frames.
//
// Frames hold a header (step, count), eight result numbers the program writes, and the chosen
// views for up to `capacity` slots, each view copied in one `set` per step in the worker: nothing
// per entity crosses the thread boundary. Two frames alternate: the page reads the latest while
// the worker writes the other. On a cross-origin isolated page (`crossOriginIsolated`) they are
// SharedArrayBuffers created once; otherwise they are ArrayBuffers transferred back and forth (the
// page hands the frame it is done with back with the next step), which moves ownership without a
// copy but gives the page new view objects for each frame it receives.
//
// One step is in flight at a time: `step(input)` returns false while the worker is still busy, so
// a page that renders faster than the worker steps draws the latest frame again.

import { HitcoreError } from "./validate.js";
import type { CreateOptions } from "./create.js";

/** The world views a frame can carry, with their element types. */
export const FRAME_FIELDS = {
  x: Float32Array, y: Float32Array, a: Float32Array, b: Float32Array, vx: Float32Array, vy: Float32Array,
  groups: Uint32Array, kinds: Uint8Array, flags: Uint8Array,
} as const;
export type FrameField = keyof typeof FRAME_FIELDS;
type FieldArray<F extends FrameField> = InstanceType<(typeof FRAME_FIELDS)[F]>;

/** Numbers in a frame's header: the step that wrote it, the world's body count, then the results. */
export const FRAME_HEADER = 2;
/** Result numbers a step program may write per frame (`results` in the program and the frame). */
export const FRAME_RESULTS = 8;

/** Byte offsets of each field in a frame of `capacity` slots, and the frame's byte length. */
export function frameLayout(fields: readonly FrameField[], capacity: number): { offsets: number[]; bytes: number } {
  let at = (FRAME_HEADER + FRAME_RESULTS) * 8;
  const offsets = fields.map((f) => {
    const here = at;
    at += Math.ceil((FRAME_FIELDS[f].BYTES_PER_ELEMENT * capacity) / 8) * 8;
    return here;
  });
  return { offsets, bytes: at };
}

/** What the page sends the worker. */
export type ToWorker =
  | { op: "create"; options: WorkerCreateOptions; setup: unknown; fields: FrameField[]; frameCapacity: number; shared: SharedArrayBuffer[] | null }
  | { op: "level"; level: unknown }
  | { op: "step"; input: unknown; frame: ArrayBuffer | null };
/** What the worker answers. */
export type FromWorker =
  | { op: "ready" }
  | { op: "level" }
  | { op: "frame"; index: number; frame: ArrayBuffer | null }
  | { op: "error"; code: string; message: string };

/** createWorld's options as they cross to a worker: a core is passed by URL (or bytes). */
export type WorkerCreateOptions = Omit<CreateOptions, "wasm"> & { wasm?: string | ArrayBuffer | Uint8Array };

export interface WorldWorkerOptions<F extends FrameField> {
  /** createWorld's options in the worker; `capacity` also sizes the frames. A relative `wasm` URL is resolved against the page. */
  world?: WorkerCreateOptions;
  /** Handed to the program's `setup` (structured-cloned): the scene to build. */
  setup?: unknown;
  /** The views each frame carries, e.g. ["x", "y", "flags"]. */
  fields: readonly F[];
  /** Share the frames through SharedArrayBuffers (default: where `crossOriginIsolated`), else transfer them. */
  shared?: boolean;
}

/** The latest frame: the views for slots [0, count) and the program's results. */
export interface WorkerFrame<F extends FrameField> {
  /** Steps done (0 before the first). */
  step: number;
  /** Bodies in the world after that step. */
  count: number;
  /** What the program's step wrote into its `results`. */
  results: Float64Array;
  views: { [K in F]: FieldArray<K> };
}

type Pending = { resolve: () => void; reject: (err: Error) => void };

/** The page's handle on a world running in a module worker. */
export class WorldWorker<F extends FrameField = FrameField> {
  /** Frames are SharedArrayBuffers (true) or transferred ArrayBuffers (false). */
  readonly shared: boolean;
  /**
   * The latest frame. Its views stay valid until the next frame has arrived and `step` is called
   * again (the worker then writes into it, or it is handed back): read `frame` anew each frame.
   */
  frame: WorkerFrame<F>;
  private readonly fields: readonly F[];
  private readonly offsets: number[];
  private readonly capacity: number;
  /** Shared mode: the two frames' views, made once. */
  private readonly sharedFrames: WorkerFrame<F>[] = [];
  private readonly sharedHeaders: Float64Array[] = [];
  /** Transfer mode: the frame before the latest, handed back with the next step. */
  private spare: ArrayBuffer | null = null;
  private latest: ArrayBuffer | null = null;
  private inFlight = false;
  /** create and loadLevel calls, answered in order. */
  private requests: Pending[] = [];
  /** next() calls waiting for the step in flight. */
  private waiters: Pending[] = [];
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker, fields: readonly F[], capacity: number, shared: boolean) {
    this.fields = fields;
    this.capacity = capacity;
    this.shared = shared;
    this.offsets = frameLayout(fields, capacity).offsets;
    this.frame = this.viewsOf(new ArrayBuffer(frameLayout(fields, capacity).bytes));
    worker.onmessage = (e: MessageEvent<FromWorker>) => this.receive(e.data);
    worker.onerror = (e: ErrorEvent) => this.fail(new HitcoreError("WORKER_FAILED", `the worker stopped: ${e.message}. Check that it calls serveWorld and loads as a module worker ({ type: "module" }).`));
  }

  /**
   * Starts a world in `worker` (a module worker whose script calls serveWorld) and runs the
   * program's setup there; resolves once the world is ready, rejects with its HitcoreError.
   */
  static async start<F extends FrameField>(worker: Worker, options: WorldWorkerOptions<F>): Promise<WorldWorker<F>> {
    const fields = [...options.fields];
    for (const f of fields) {
      if (!Object.prototype.hasOwnProperty.call(FRAME_FIELDS, f)) {
        throw new HitcoreError("INVALID_OPTION", `WorldWorker: fields may name ${Object.keys(FRAME_FIELDS).join(", ")}, got ${String(f)}.`);
      }
    }
    const world = { ...options.world };
    const capacity = world.capacity ?? 1024;
    if (!Number.isInteger(capacity) || capacity < 1) throw new HitcoreError("INVALID_OPTION", `WorldWorker: world.capacity must be a positive integer, got ${String(capacity)}.`);
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
    if (options.shared === true && !isolated) {
      throw new HitcoreError("INVALID_OPTION", "WorldWorker: shared frames need a cross-origin isolated page (headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp). Serve the page with them, or leave shared out to transfer frames.");
    }
    const shared = options.shared ?? isolated;
    // The worker resolves URLs against its own script: send it the page's reading.
    const page = (globalThis as { location?: { href: string } }).location?.href;
    if (typeof world.wasm === "string" && page) world.wasm = new URL(world.wasm, page).href;
    const host = new WorldWorker<F>(worker, fields, capacity, shared);
    const bytes = frameLayout(fields, capacity).bytes;
    const buffers = shared ? [new SharedArrayBuffer(bytes), new SharedArrayBuffer(bytes)] : null;
    for (const b of buffers ?? []) {
      host.sharedFrames.push(host.viewsOf(b));
      host.sharedHeaders.push(new Float64Array(b, 0, FRAME_HEADER));
    }
    const message: ToWorker = { op: "create", options: world, setup: options.setup, fields, frameCapacity: capacity, shared: buffers };
    try {
      await host.request(message);
    } catch (err) {
      worker.terminate(); // a worker whose world failed to start serves nothing
      throw err;
    }
    return host;
  }

  /** Loads a level into the worker's world (`world.loadLevel(level)` there). */
  loadLevel(level: unknown): Promise<void> {
    return this.request({ op: "level", level });
  }

  /** A step is running in the worker. */
  get busy(): boolean {
    return this.inFlight;
  }

  /**
   * Sends one step's input (structured-cloned); false, sending nothing, while the last step is
   * still running. `frame` becomes the new one when it arrives (`next()` waits for it).
   */
  step(input?: unknown): boolean {
    if (this.failure) throw this.failure;
    if (this.inFlight) return false;
    this.inFlight = true;
    const frame = this.spare;
    this.spare = null;
    const message: ToWorker = { op: "step", input, frame };
    this.worker.postMessage(message, frame ? [frame] : []);
    return true;
  }

  /** Resolves with the frame of the step in flight (at once with the latest when none is). */
  async next(): Promise<WorkerFrame<F>> {
    if (this.failure) throw this.failure;
    if (this.inFlight) await new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    return this.frame;
  }

  /** Stops the worker; later calls throw. */
  terminate(): void {
    this.worker.terminate();
    this.fail(new HitcoreError("DISPOSED", "the WorldWorker was terminated. Start a new one with WorldWorker.start()."));
  }

  private request(message: ToWorker): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.requests.push({ resolve, reject });
      this.worker.postMessage(message);
    });
  }

  private receive(message: FromWorker): void {
    if (message.op === "error") {
      // An error in setup or loadLevel rejects that call; one in a step stops the worker world.
      const err = new HitcoreError(message.code, message.message.replace(/^hitcore: /, ""));
      if (this.inFlight) this.fail(err);
      else this.requests.shift()?.reject(err);
      return;
    }
    if (message.op !== "frame") {
      this.requests.shift()?.resolve();
      return;
    }
    this.inFlight = false;
    if (this.shared) {
      // Views made once per frame, again only when the body count changed.
      const frame = this.sharedFrames[message.index], header = this.sharedHeaders[message.index];
      if (Math.min(header[1], this.capacity) === frame.count) frame.step = header[0];
      else this.sharedFrames[message.index] = this.viewsOf(header.buffer);
      this.frame = this.sharedFrames[message.index];
    } else {
      this.spare = this.latest;
      this.latest = message.frame;
      this.frame = this.viewsOf(message.frame!);
    }
    const waiting = this.waiters;
    this.waiters = [];
    for (const p of waiting) p.resolve();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.inFlight = false;
    const waiting = [...this.requests, ...this.waiters];
    this.requests = [];
    this.waiters = [];
    for (const p of waiting) p.reject(err);
  }

  private viewsOf(buffer: ArrayBufferLike): WorkerFrame<F> {
    const header = new Float64Array(buffer, 0, FRAME_HEADER + FRAME_RESULTS);
    const count = Math.min(header[1], this.capacity);
    const views = {} as Record<F, Float32Array | Uint32Array | Uint8Array>;
    this.fields.forEach((f, k) => { views[f] = new FRAME_FIELDS[f](buffer as ArrayBuffer, this.offsets[k], count); });
    return { step: header[0], count, results: header.subarray(FRAME_HEADER), views } as WorkerFrame<F>;
  }
}
