// Progress of a long benchmark command, on stderr so that stdout and the results files stay clean:
// each unit of work announces itself as "k of N", with the time elapsed and an estimate of the time
// left. Units may weigh differently (a scene at 100k against one at 10k): the estimate is the time
// per unit of weight so far, times the weight left.

function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class Progress {
  private units = 0;
  private done_ = 0; // the weight of the units finished
  private current = 0; // the weight of the unit running
  private readonly start = performance.now();

  /**
   * `label` names the command or suite; `total` is how many units it will announce, and `weight`
   * their summed weight (by default one per unit).
   */
  constructor(private readonly label: string, private readonly total: number, private readonly weight = total) {}

  /** Announces the next unit of work, `what`, of weight `w`: "[label] k of N: what (m:ss elapsed, about m:ss left)". */
  step(what: string, w = 1): void {
    this.done_ += this.current;
    this.current = w;
    this.units++;
    const elapsed = performance.now() - this.start, times = [`${clock(elapsed)} elapsed`];
    if (this.done_ > 0) times.push(`about ${clock((elapsed / this.done_) * (this.weight - this.done_))} left`);
    process.stderr.write(`[${this.label}] ${this.units} of ${this.total}: ${what} (${times.join(", ")})\n`);
  }

  /** Says the command or suite is through, and how long it took. */
  done(): void {
    process.stderr.write(`[${this.label}] done: ${this.total} in ${clock(performance.now() - this.start)}\n`);
  }
}
