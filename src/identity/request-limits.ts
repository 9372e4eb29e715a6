// The two limits of SPEC §8 around authentication: failed authentications per client address (an
// address over it gets 429 before its credentials are even checked), then requests per key or token
// subject (per client address for the trusted operator without auth). Both counted in the store.
import { AppError } from "~/shared/errors";
import type { Principal } from "~/shared/principal";
import { parseRate } from "~/shared/rate";
import type { Store } from "~/store/store";
import { RateLimiter, type Verdict } from "./rate-limit";

export interface LimitSettings {
  /** "600/m" or "off" (config: rateLimit.requests). */
  requests: string;
  /** "30/m" or "off" (config: rateLimit.authFailures). */
  authFailures: string;
}

const limiter = (store: Store, text: string, prefix: string) => {
  const rate = parseRate(text);
  return rate ? new RateLimiter(store, rate, prefix) : null;
};

const tooMany = (v: Verdict & { ok: false }, why: string) =>
  new AppError("RATE_LIMITED", `${why}; retry in ${v.retryAfter} s`, undefined, { retryAfter: v.retryAfter });

export class RequestLimits {
  private readonly requests: RateLimiter | null;
  private readonly failures: RateLimiter | null;

  constructor(
    store: Store,
    private readonly settings: LimitSettings,
  ) {
    this.requests = limiter(store, settings.requests, "rate:");
    this.failures = limiter(store, settings.authFailures, "authfail:");
  }

  /** Whether any limit is on (off: the pipeline authenticates without waiting on the store). */
  get enabled(): boolean {
    return this.requests !== null || this.failures !== null;
  }

  /**
   * Authenticates through `authenticate` within the limits: the principal, or the error to answer
   * (429 RATE_LIMITED with retryAfter in its details, or authentication's own 401/403/503).
   */
  async admit(
    address: string,
    authenticate: () => Principal | AppError | Promise<Principal | AppError>,
  ): Promise<Principal | AppError> {
    if (this.failures) {
      const v = await this.failures.check(address);
      if (!v.ok) return tooMany(v, "too many failed authentications from this address");
    }
    const who = await authenticate();
    if (who instanceof AppError) {
      if (this.failures && who.code === "UNAUTHORIZED") await this.failures.take(address);
      return who;
    }
    if (this.requests) {
      const v = await this.requests.take(who.kind === "local" ? `addr:${address}` : who.id);
      if (!v.ok) return tooMany(v, `rate limit of ${this.settings.requests} exceeded`);
    }
    return who;
  }
}
