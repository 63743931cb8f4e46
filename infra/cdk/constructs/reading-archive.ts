import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import {
  AppendDelimiterToRecordProcessor,
  Compression,
  DeliveryStream,
  MetadataExtractionProcessor,
  RecordDeAggregationProcessor,
  S3Bucket,
  StreamEncryption,
} from 'aws-cdk-lib/aws-kinesisfirehose';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  ObjectOwnership,
  StorageClass,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import {
  ARCHIVE_PARTITION_KEYS,
  ARCHIVE_ROOT,
  archiveDayPrefix,
} from '@argentum/functions/domain/telemetry/archive';
import { archiveBucket } from '../../src/definitions';
import { acknowledgePolicyWildcardsAtSynth, acknowledgeRule } from '../nag';

/** Where Firehose puts records it could not partition or deliver (nothing reads them; kept for a look). */
const ARCHIVE_ERROR_PREFIX = 'errors/!{firehose:error-output-type}/!{timestamp:yyyy/MM/dd}/';

/**
 * The long-term archive of raw readings: a retained bucket and the Amazon Data Firehose stream ingest
 * feeds, one PutRecordBatch a batch of JSON lines (functions/src/domain/telemetry/archive.ts has the
 * layout; multi-record deaggregation splits the lines before partitioning).
 *
 * - Dynamic partitioning by organization and day, keys extracted from each record's JSON with JQ
 *   (no Lambda transform), so an export reads only its organization's days.
 * - GZIP JSON lines, not Parquet: Parquet needs a Glue table schema and record-format conversion
 *   (charged per GB), and the export Lambda would need a Parquet reader; a device message's data
 *   points vary by device, which JSON keeps as sent. Athena reads gzipped JSON lines as they are.
 * - Buffering 128 MiB / 900 s (Firehose's maximums): fewer, larger objects; the archive is read only
 *   for ranges older than the hot store's 35 days, so the delay costs nothing.
 * - Limits: at most 500 partitions (organization x day) may be active in a buffer interval per stream
 *   (raisable to 5,000); records beyond go to the error prefix (`activePartitionExceeded`).
 */
export class ReadingArchive extends Construct {
  readonly bucket: Bucket;
  readonly stream: DeliveryStream;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, archiveBucket.id, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [
        {
          id: 'ArchiveTiers',
          prefix: ARCHIVE_ROOT,
          // Read only by exports of old ranges: infrequent access once the hot store has the days too.
          transitions: [{ storageClass: StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(30) }],
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeRule(
      this.bucket,
      'S1',
      'Objects are written only by the readings Firehose stream and read only by the data Lambda (exports), both through IAM roles of this app; no browser or presigned URL ever reaches this bucket.',
    );

    this.stream = new DeliveryStream(this, 'Stream', {
      encryption: StreamEncryption.awsOwnedKey(),
      destination: new S3Bucket(this.bucket, {
        dynamicPartitioning: { enabled: true },
        processors: [
          // Ingest sends a batch's readings as JSON lines in one record (up to 500 a record).
          RecordDeAggregationProcessor.json(),
          MetadataExtractionProcessor.jq16({ ...ARCHIVE_PARTITION_KEYS }),
          // One record a line (JSON lines).
          new AppendDelimiterToRecordProcessor(),
        ],
        dataOutputPrefix: archiveDayPrefix('!{partitionKeyFromQuery:orgId}', '!{partitionKeyFromQuery:day}'),
        errorOutputPrefix: ARCHIVE_ERROR_PREFIX,
        compression: Compression.GZIP,
        fileExtension: '.json.gz',
        bufferingInterval: Duration.seconds(900),
        bufferingSize: Size.mebibytes(128),
      }),
    });
    acknowledgePolicyWildcardsAtSynth(
      this.stream,
      "CDK's Firehose S3 destination grants its own role read/write on the one archive bucket (Firehose needs AbortMultipartUpload, GetBucketLocation, GetObject, ListBucket, ListBucketMultipartUploads and PutObject); object keys carry organization and day, known only at run time.",
    );
  }
}
