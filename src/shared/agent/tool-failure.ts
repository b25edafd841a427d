/**
 * A tool's failure that still has details to show (a chain's finished steps, say). Tools fail by throwing, as pi's
 * do; the loop turns this one into an error result that keeps `details`, where any other error gets none.
 */
export class ToolFailure<T = unknown> extends Error {
  constructor(
    message: string,
    readonly details: T,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}
