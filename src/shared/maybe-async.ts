// A value now or later: the request path's checks (key, rate limit) answer from memory on nearly every
// request and only sometimes wait on the store. Chaining them through `then` only when a promise comes
// up keeps the common case free of promise allocations and microtask turns.

export type MaybePromise<T> = T | Promise<T>;

/** `f(value)` at once when `value` is here, else once it resolves. */
export function andThen<T, R>(value: MaybePromise<T>, f: (v: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}
