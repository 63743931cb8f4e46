import type { Clock } from '../../domain/ports';
import type { VendorResponse } from './http';

export interface AccessToken {
  value: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** Renew this long before a token's stated expiry, so a request never leaves with a dying token. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * Keeps a vendor's OAuth access token for a warm Lambda: reused until shortly before it expires,
 * renewed once for all concurrent callers (one refresh in flight at a time).
 */
export class TokenKeeper {
  private current: AccessToken | undefined;
  private renewing: Promise<AccessToken> | undefined;

  constructor(
    /** Obtains a new token; `stale` is the one the vendor just refused, if any. */
    private readonly obtain: (stale: string | undefined) => Promise<AccessToken>,
    private readonly clock: Clock,
  ) {}

  private fresh(token: AccessToken | undefined): boolean {
    return token !== undefined && token.expiresAt - EXPIRY_MARGIN_MS > this.clock.now().getTime();
  }

  async token(): Promise<string> {
    const current = this.current;
    if (current && this.fresh(current)) return current.value;
    return this.renew(current?.value);
  }

  /** A new token in place of `stale` (unless another caller already replaced it). */
  async renew(stale: string | undefined): Promise<string> {
    const current = this.current;
    if (current && this.fresh(current) && current.value !== stale) return current.value;
    this.renewing ??= this.obtain(stale).finally(() => {
      this.renewing = undefined;
    });
    this.current = await this.renewing;
    return this.current.value;
  }

  /** Starts from a token known elsewhere (one another instance stored with the credentials). */
  adopt(token: AccessToken): void {
    if (this.fresh(token)) this.current = token;
  }

  /**
   * Sends with the current token; when the vendor says it has expired, renews it and sends once more.
   * The second answer is the caller's to judge (still expired: our credentials are refused).
   */
  async send(
    request: (accessToken: string) => Promise<VendorResponse>,
    expired: (response: VendorResponse) => boolean,
  ): Promise<VendorResponse> {
    const first = await this.token();
    const response = await request(first);
    if (!expired(response)) return response;
    return request(await this.renew(first));
  }
}
