import type { Device } from '../devices/device';
import type { DeviceStore } from '../devices/ports';
import type { FileStore } from '../files/ports';
import type { Clock } from '../ports';
import type { TelemetryArchive } from '../telemetry/archive';
import type { TelemetryStore } from '../telemetry/telemetry';
import type { Cell } from './cells';

/** A device as exports and the sensor page know it. */
export type ExportDevice = Pick<
  Device,
  'devID' | 'devName' | 'devType' | 'orgID' | 'floorID' | 'dataPoints' | 'clockOffset'
>;

/** The registered devices (the device store). */
export type ExportDeviceStore = Pick<DeviceStore, 'get' | 'ofOrganization'>;

/**
 * Where large export files go: the files bucket (the file store), read back by the browser through
 * a short-lived link.
 */
export type ExportFileStore = Pick<FileStore, 'write' | 'readUrl'>;

/** Writes a true Excel 97-2003 workbook (BIFF8 in an OLE2 container): one sheet per part. */
export interface XlsWriter {
  write(
    sheets: readonly { name: string; header: readonly string[]; rows: readonly (readonly Cell[])[] }[],
  ): Promise<Uint8Array>;
}

export interface ExportSettings {
  /** The one organization whose users may export every device's data ('All device Data'). */
  allDeviceExportOrgId: string | undefined;
  /** How many days back the hot store holds raw readings; older ones are read from the archive. */
  hotStoreDays: number;
}

export interface ExportPorts {
  devices: ExportDeviceStore;
  /** Raw readings, read a page at a time. */
  telemetry: Pick<TelemetryStore, 'readRaw'>;
  /** Raw readings older than the hot store keeps (the long-term archive). */
  archive: TelemetryArchive;
  clock: Clock;
  files: ExportFileStore;
  xls: XlsWriter;
  exportSettings: ExportSettings;
}
