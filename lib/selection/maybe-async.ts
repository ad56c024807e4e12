/**
 * Values that may or may not be promises. Resolvers and stages may answer synchronously or
 * not; the core waits only when they did not, so a fully synchronous pipeline never yields.
 */

export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** `next(value)`, right away when `value` is not a promise, else once it settles. */
export function andThen<T, R>(
  value: T | PromiseLike<T>,
  next: (settled: T) => MaybePromise<R>,
): MaybePromise<R> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value as T);
}
