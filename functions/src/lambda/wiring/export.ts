/** The export's adapters: devices and raw readings in DynamoDB, files in S3, the .xls writer. */
import { sheetJsXlsWriter } from '../../adapters/xls';
import { config } from '../../config';
import type { ExportPorts } from '../../domain/export/ports';
import { dynamoExportDevices, dynamoExportReadings, s3ExportFiles } from '../../stores/export-sources';

export const exportPorts: ExportPorts = {
  exportDevices: dynamoExportDevices,
  readings: dynamoExportReadings,
  exportFiles: s3ExportFiles,
  xls: sheetJsXlsWriter,
  exportSettings: {
    get allDeviceExportOrgId() {
      return config.allDeviceExportOrgId;
    },
  },
};
