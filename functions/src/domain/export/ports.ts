import type { Clock } from '../ports';
import type { TelemetryArchive } from '../telemetry/archive';
import type { TelemetryStore } from '../telemetry/telemetry';
import type { Cell } from './cells';

/** A device as exports and the sensor page know it. */
export interface ExportDevice {
  devID: string;
  devName: string;
  devType: number;
  orgID: string;
  floorID?: string;
  dataPoints: { dp: string; dn?: string }[];
}

/** The registered devices. */
export interface ExportDeviceStore {
  get(devId: string): Promise<ExportDevice | undefined>;
  /** Every device of an organization. */
  listOfOrg(orgId: string): Promise<ExportDevice[]>;
}

/** Where large export files go: object storage, read back by the browser through a short-lived link. */
export interface ExportFileStore {
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** A link that downloads the object as an attachment named `fileName`. */
  downloadUrl(
    key: string,
    options: { fileName: string; contentType: string; expiresInSeconds: number },
  ): Promise<string>;
}

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
  exportDevices: ExportDeviceStore;
  /** Raw readings, read a page at a time. */
  telemetry: Pick<TelemetryStore, 'readRaw'>;
  /** Raw readings older than the hot store keeps (the long-term archive). */
  archive: TelemetryArchive;
  clock: Clock;
  exportFiles: ExportFileStore;
  xls: XlsWriter;
  exportSettings: ExportSettings;
}
