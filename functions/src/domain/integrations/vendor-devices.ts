import type { IntegrationVendor, VendorLinkProperty } from '@argentum/contracts';

/** The device's `connDev` for each vendor, and the property holding the vendor's id of the device. */
export const VENDOR_DEVICES: Record<IntegrationVendor, { connDev: string; idProperty: VendorLinkProperty }> =
  {
    ryse: { connDev: 'shades', idProperty: 'ryseShadeId' },
    nest: { connDev: 'nest', idProperty: 'sdmDeviceId' },
    ecobee: { connDev: 'ecobee', idProperty: 'ecobeeThermostatId' },
  };
