// Orders answers from the server by when they were asked for: a slow poll that was sent before
// a newer answer arrived must not replace it ("pending" arriving after "ready"). Every request
// takes a ticket when it is sent; its answer counts only if no later ticket has been applied.
// A change the app applies from elsewhere (a step's POST answer, a stream's final turn) takes a
// fresh ticket, so every request still in flight is older than it.
export class RequestGate {
  private issued = 0;
  private applied = 0;

  /** A ticket for a request about to be sent. */
  issue(): number {
    this.issued += 1;
    return this.issued;
  }

  /** May the answer of this ticket be shown? (It then becomes the newest shown.) */
  accept(ticket: number): boolean {
    if (ticket <= this.applied) return false;
    this.applied = ticket;
    return true;
  }

  /** Something newer than every request in flight is being shown. */
  supersede(): void {
    this.applied = this.issue();
  }
}
