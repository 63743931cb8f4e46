import { type IntegrationVendor, VENDOR_LINK_PROPERTIES, type VendorLinkProperty } from '@argentum/contracts';

/** The device's `connDev` for each vendor, and the property holding the vendor's id of the device. */
export const VENDOR_DEVICES: Record<IntegrationVendor, { connDev: string; idProperty: VendorLinkProperty }> =
  {
    ryse: { connDev: 'shades', idProperty: 'ryseShadeId' },
    nest: { connDev: 'nest', idProperty: 'sdmDeviceId' },
    ecobee: { connDev: 'ecobee', idProperty: 'ecobeeThermostatId' },
  };

/** Whether properties link a device to its vendor (a device to list for the poller, checked when it runs). */
export const namesVendorLink = (properties: Record<string, unknown> | undefined) =>
  VENDOR_LINK_PROPERTIES.some((name) => typeof properties?.[name] === 'string' && properties[name] !== '');
