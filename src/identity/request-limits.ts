// The two limits of SPEC §8 around authentication: failed authentications per client address (an
// address over it gets 429 before its credentials are even checked), then requests per key or token
// subject (per client address for the trusted operator without auth). Both counted in the store.
import { AppError } from "~/shared/errors";
import type { Principal } from "~/shared/principal";
import { parseRate } from "~/shared/rate";
import { andThen, type MaybePromise } from "~/shared/maybe-async";
import type { Repos, Store } from "~/store/store";
import type { DeferredWrites } from "~/shared/deferred-writes";
import { RateLimiter, type Verdict } from "./rate-limit";

export interface LimitSettings {
  /** "600/m" or "off" (config: rateLimit.requests). */
  requests: string;
  /** "30/m" or "off" (config: rateLimit.authFailures). */
  authFailures: string;
}

const limiter = (store: Store, text: string, prefix: string, writes: DeferredWrites<Repos>) => {
  const rate = parseRate(text);
  return rate ? new RateLimiter(store, rate, prefix, writes) : null;
};

const tooMany = (v: Verdict & { ok: false }, why: string) =>
  new AppError("RATE_LIMITED", `${why}; retry in ${v.retryAfter} s`, undefined, { retryAfter: v.retryAfter });

export class RequestLimits {
  private readonly requests: RateLimiter | null;
  private readonly failures: RateLimiter | null;

  /** `writes`: the shared periodic commit both limits' counts are written in. */
  constructor(
    store: Store,
    private readonly settings: LimitSettings,
    writes: DeferredWrites<Repos>,
  ) {
    this.requests = limiter(store, settings.requests, "rate:", writes);
    this.failures = limiter(store, settings.authFailures, "authfail:", writes);
  }

  /** Whether any limit is on (off: the pipeline authenticates without waiting on the store). */
  get enabled(): boolean {
    return this.requests !== null || this.failures !== null;
  }

  /**
   * Authenticates through `authenticate` within the limits: the principal, or the error to answer
   * (429 RATE_LIMITED with retryAfter in its details, or authentication's own 401/403/503). At once when
   * neither the key nor the limits need the store (nearly every request), else a promise.
   */
  admit(address: string, authenticate: () => MaybePromise<Principal | AppError>): MaybePromise<Principal | AppError> {
    const failures = this.failures;
    if (!failures) return andThen(authenticate(), (who) => this.counted(address, who));
    return andThen(failures.check(address), (v) =>
      v.ok
        ? andThen(authenticate(), (who) => this.counted(address, who))
        : tooMany(v, "too many failed authentications from this address"),
    );
  }

  /** A failed authentication counted against its address; a principal's request against its bucket. */
  private counted(address: string, who: Principal | AppError): MaybePromise<Principal | AppError> {
    if (who instanceof AppError) {
      if (this.failures && who.code === "UNAUTHORIZED") return andThen(this.failures.take(address), () => who);
      return who;
    }
    if (!this.requests) return who;
    return andThen(this.requests.take(bucketOf(who, address)), (v) =>
      v.ok ? who : tooMany(v, `rate limit of ${this.settings.requests} exceeded`),
    );
  }
}

/**
 * A principal's bucket: a key's id (unique across organizations), a token's subject within its
 * organization (two organizations' "alice" are two subjects), the local operator's client address.
 */
function bucketOf(who: Principal, address: string): string {
  if (who.kind === "local") return `addr:${address}`;
  return who.kind === "token" ? `org:${JSON.stringify([who.org, who.id])}` : who.id;
}
