/**
 * Sign-in attempts limited per client address and per account (SPEC §7): failed passwords
 * take from a bucket that refills slowly; an empty bucket answers 429 with Retry-After before
 * the password is even checked. The account's bucket is kept whether or not the account
 * exists, so the answers say nothing about which emails have accounts.
 *
 * The buckets live in this process: with `WEB_CONCURRENCY=N` (scripts/start.mjs) each of the N
 * processes keeps its own, so an address gets up to N bursts. Accepted: one a minute per
 * account and process still makes guessing a 12-character password hopeless (README, "Several
 * server processes").
 */
import { AuthThrottle } from "@/lib/ingest/auth-throttle";

/** Failed sign-ins one address may make in a burst (a team behind one NAT mistypes too). */
export const ADDRESS_BURST = 20;
/** …then one more every 30 s. */
export const ADDRESS_REFILL_PER_SECOND = 1 / 30;
/** Failed sign-ins for one account in a burst, from anywhere. */
export const ACCOUNT_BURST = 5;
/** …then one more a minute: guessing a 12-character password this way takes forever. */
export const ACCOUNT_REFILL_PER_SECOND = 1 / 60;

export class SignInThrottle {
  private readonly addresses: AuthThrottle;
  private readonly accounts: AuthThrottle;

  constructor(now: () => number = Date.now) {
    this.addresses = new AuthThrottle({
      burst: ADDRESS_BURST,
      refillPerSecond: ADDRESS_REFILL_PER_SECOND,
      now,
    });
    this.accounts = new AuthThrottle({
      burst: ACCOUNT_BURST,
      refillPerSecond: ACCOUNT_REFILL_PER_SECOND,
      now,
    });
  }

  /** Seconds to wait before `email` may be tried from `address` again; 0 when it may now. */
  retryAfterSeconds(address: string, email: string): number {
    return Math.max(
      this.addresses.retryAfterSeconds(address),
      this.accounts.retryAfterSeconds(email.toLowerCase()),
    );
  }

  failed(address: string, email: string): void {
    this.addresses.failed(address);
    this.accounts.failed(email.toLowerCase());
  }
}
