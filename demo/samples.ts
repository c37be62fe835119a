// Timed samples over a sliding window (the last second), for the HUD's fps and median timings.
// Fixed-size rings and a scratch array: pushing and taking the median allocate nothing, so the
// frame loop can do both every frame.

export class SampleWindow {
  private readonly times: Float64Array;
  private readonly values: Float64Array;
  private readonly scratch: Float64Array;
  private head = 0; // index of the oldest sample
  private size = 0;

  /** @param span window length in ms; @param capacity samples kept at most (oldest dropped first) */
  constructor(private readonly span = 1000, capacity = 1024) {
    this.times = new Float64Array(capacity);
    this.values = new Float64Array(capacity);
    this.scratch = new Float64Array(capacity);
  }

  /** Records a value taken at time `now` (ms) and forgets samples older than the window. */
  push(now: number, value: number): void {
    const cap = this.times.length;
    if (this.size === cap) {
      this.head = (this.head + 1) % cap;
      this.size--;
    }
    const at = (this.head + this.size) % cap;
    this.times[at] = now;
    this.values[at] = value;
    this.size++;
    while (this.size > 1 && now - this.times[this.head] > this.span) {
      this.head = (this.head + 1) % cap;
      this.size--;
    }
  }

  /** Samples in the window. */
  get count(): number {
    return this.size;
  }

  /** Samples per second over the window (the fps when one sample is pushed per frame). */
  rate(): number {
    if (this.size < 2) return 0;
    const cap = this.times.length;
    const newest = this.times[(this.head + this.size - 1) % cap];
    const elapsed = newest - this.times[this.head];
    return elapsed > 0 ? ((this.size - 1) * 1000) / elapsed : 0;
  }

  /** Median of the values in the window; NaN when empty. */
  median(): number {
    const n = this.size;
    if (n === 0) return NaN;
    const cap = this.values.length, s = this.scratch;
    // Insertion sort: a second of frames is at most a few hundred samples, and sorting a
    // typed subarray would allocate its view.
    for (let i = 0; i < n; i++) {
      const v = this.values[(this.head + i) % cap];
      let j = i - 1;
      while (j >= 0 && s[j] > v) {
        s[j + 1] = s[j];
        j--;
      }
      s[j + 1] = v;
    }
    return n & 1 ? s[n >> 1] : (s[(n >> 1) - 1] + s[n >> 1]) / 2;
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
  }
}
