import {
  type IntegrationVendor,
  vendorDeviceUnknownText,
  vendorNotConnectedText,
  vendorNotRespondingText,
  vendorRefusedText,
} from '@argentum/contracts';
import { DomainError } from '../errors';

/**
 * How a vendor call fails, as the client learns it:
 * - timeout: no answer within the adapter's hard timeout (504);
 * - unavailable: unreachable, a 5xx, a 429 or an answer we cannot read (502);
 * - unauthorized: our credentials are refused even after a token refresh (502: an operator must act);
 * - unknown-device: the vendor does not know the linked device (502);
 * - refused: the vendor refused the change itself, e.g. a set point while eco mode is on (409).
 */
export type VendorFailure = 'timeout' | 'unavailable' | 'unauthorized' | 'unknown-device' | 'refused';

export function vendorError(vendor: IntegrationVendor, failure: VendorFailure, reason?: string): DomainError {
  switch (failure) {
    case 'timeout':
      return new DomainError('upstream-timeout', vendorNotRespondingText(vendor), { vendor, failure });
    case 'unavailable':
      return new DomainError('upstream', vendorNotRespondingText(vendor), { vendor, failure });
    case 'unauthorized':
      return new DomainError('upstream', vendorNotConnectedText(vendor), { vendor, failure });
    case 'unknown-device':
      return new DomainError('upstream', vendorDeviceUnknownText(vendor), { vendor, failure });
    case 'refused':
      return new DomainError('conflict', vendorRefusedText(vendor, reason), { vendor, failure });
  }
}
