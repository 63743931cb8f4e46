/** The export's adapters: the device store, the files bucket's store, archived readings in S3, the .xls writer (readings: wiring/telemetry). */
import { s3TelemetryArchive } from '../../adapters/s3-telemetry-archive';
import { sheetJsXlsWriter } from '../../adapters/xls';
import { config } from '../../config';
import type { ExportPorts } from '../../domain/export/ports';
import { systemClock } from '../../domain/ports';
import { RAW_RETENTION_DAYS } from '../../stores/telemetry-dynamodb';
import { dynamoDevices } from '../../stores/devices';
import { s3FileStore } from '../../stores/files';

export const exportPorts: Omit<ExportPorts, 'telemetry'> = {
  devices: dynamoDevices,
  files: s3FileStore,
  archive: s3TelemetryArchive,
  clock: systemClock,
  xls: sheetJsXlsWriter,
  exportSettings: {
    get allDeviceExportOrgId() {
      return config.allDeviceExportOrgId;
    },
    // Raw readings expire from the hot store after this; the archive keeps them.
    hotStoreDays: RAW_RETENTION_DAYS,
  },
};
