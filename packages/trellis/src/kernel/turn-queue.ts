/**
 * Runs queued work one piece per turn of the event loop, so that heavy pieces (a large body
 * decoded, parsed, validated and answered) do not all fall into the turn their bodies ended in.
 *
 * Why: libuv (1.52, Node 24) accepts one connection per turn of the loop. A turn in which fifty
 * 900 KB bodies end runs their fifty requests before the next turn, about half a second on two
 * cores, so new connections waited in the listen queue seconds each: under 100 connections
 * uploading 900 KB, 20 to 47 of them sat unaccepted for the whole run, and one request in fifty
 * waited more than 10 s before a byte of it was read. One piece per turn keeps a turn short: the
 * listen queue drains while the pieces wait, and each waiting piece holds only its body.
 */
export class TurnQueue {
  readonly #pieces: (() => void)[] = [];
  #head = 0;
  #armed = false;

  /**
   * Runs `piece` after the I/O of this turn (in its check phase) when no piece waits, else one
   * turn after the piece before it.
   */
  run(piece: () => void): void {
    this.#pieces.push(piece);
    if (!this.#armed) {
      this.#armed = true;
      setImmediate(this.#next);
    }
  }

  /** Slots the queue holds, run pieces not yet dropped among them (tests). */
  get held(): number {
    return this.#pieces.length;
  }

  /** Pieces waiting for their turn. */
  get waiting(): number {
    return this.#pieces.length - this.#head;
  }

  readonly #next = (): void => {
    const piece = this.#pieces[this.#head];
    this.#pieces[this.#head++] = undefined as unknown as () => void;
    // Emptied, or under uploads that never let it empty, the pieces already run are dropped:
    // otherwise the array would keep a slot for every body since the load began.
    if (this.#head === this.#pieces.length) {
      this.#pieces.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#pieces.length) {
      this.#pieces.splice(0, this.#head);
      this.#head = 0;
    }
    // Armed again before the piece runs: an immediate set while immediates run waits for the next
    // turn (Node's check phase), which is the point.
    if (this.waiting > 0) setImmediate(this.#next);
    else this.#armed = false;
    piece?.();
  };
}
