/** The export's adapters: devices in DynamoDB, files in S3, the .xls writer (readings: wiring/telemetry). */
import { sheetJsXlsWriter } from '../../adapters/xls';
import { config } from '../../config';
import type { ExportPorts } from '../../domain/export/ports';
import { dynamoExportDevices, s3ExportFiles } from '../../stores/export-sources';

export const exportPorts: Omit<ExportPorts, 'telemetry'> = {
  exportDevices: dynamoExportDevices,
  exportFiles: s3ExportFiles,
  xls: sheetJsXlsWriter,
  exportSettings: {
    get allDeviceExportOrgId() {
      return config.allDeviceExportOrgId;
    },
  },
};
