--
-- Exports and imports (doc/transfer.md): the SQL functions and the JSON API's
-- operations, their validation and errors, without hroe.s3_root (the files
-- themselves: test/t_transfer.sh)
--
\set VERBOSITY terse
SELECT hroe.dynamodb('CreateTable', '{"TableName": "xfer_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') #>> '{TableDescription, TableStatus}';
SELECT hroe.table_arn('xfer_t') AS arn \gset

-- ExportTableToPointInTime: members, enums, the table, point-in-time recovery
SELECT hroe.dynamodb('ExportTableToPointInTime', '{}');
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'ExportFormat', 'CSV'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'ExportType', 'PARTIAL'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'S3SseAlgorithm', 'DES'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'S3Prefix', repeat('p', 1025))) ->> '__type';
SELECT hroe.dynamodb('ExportTableToPointInTime', '{"TableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/nope", "S3Bucket": "bucket1"}');
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'ExportType', 'INCREMENTAL_EXPORT'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'ExportTime', 1000000000));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1',
	'ExportTime', extract(epoch FROM now() + interval '1 hour')));
-- no hroe.s3_root: refused; a bucket name S3 refuses, before it
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', '..'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'Bucket_1'));
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1', 'S3Prefix', 'a/../../b'));
-- the same through SQL
SELECT hroe.export_table(:'arn', 'bucket1', p_export_format => 'ION');
SELECT hroe.export_table(:'arn', NULL);
SELECT hroe.export_table(NULL, 'bucket1');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT');
-- an incremental export's validation (before point-in-time recovery's check)
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT', p_export_time => now(),
						 p_export_from_time => now() - interval '1 hour');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT',
						 p_export_from_time => now() - interval '1 hour', p_export_to_time => now() - interval '2 hours');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT',
						 p_export_from_time => now() - interval '1 hour', p_export_to_time => now() - interval '46 minutes');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT',
						 p_export_from_time => now() - interval '25 hours', p_export_to_time => now() - interval '1 minute');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT',
						 p_export_from_time => now() - interval '1 hour', p_export_view_type => 'OLD_IMAGE');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_from_time => now() - interval '1 hour');
SELECT hroe.export_table(:'arn', 'bucket1', p_export_type => 'INCREMENTAL_EXPORT',
						 p_export_from_time => now() - interval '1 hour', p_export_to_time => now() - interval '45 minutes');
SELECT hroe.dynamodb('ExportTableToPointInTime', jsonb_build_object('TableArn', :'arn', 'S3Bucket', 'bucket1',
	'ExportType', 'INCREMENTAL_EXPORT', 'IncrementalExportSpecification', jsonb_build_object(
	'ExportFromTime', extract(epoch FROM now() - interval '1 hour'), 'ExportToTime', extract(epoch FROM now() - interval '50 minutes'))));
-- the test setting: superusers only, at most the 15 minutes
SET hroe.incremental_export_min_period = 901;
SET hroe.incremental_export_min_period = 1;
RESET hroe.incremental_export_min_period;
-- no role granted hroe_export or pg_write_server_files
CREATE ROLE xfer_nobody;
GRANT USAGE ON SCHEMA hroe TO xfer_nobody;
SET ROLE xfer_nobody;
SELECT hroe.export_table(:'arn', 'bucket1');
SELECT hroe.import_table('{"S3Bucket": "bucket1"}', 'ION', '{"TableName": "xfer_i"}');
RESET ROLE;

-- DescribeExport, ListExports
SELECT hroe.dynamodb('DescribeExport', '{}');
SELECT hroe.dynamodb('DescribeExport', '{"ExportArn": "arn:aws:dynamodb:us-east-1:123456789012:table/xfer_t/export/01234567890123-abcdef12"}');
SELECT hroe.dynamodb('ListExports', '{}');
SELECT hroe.dynamodb('ListExports', jsonb_build_object('TableArn', :'arn', 'MaxResults', 5));
SELECT hroe.dynamodb('ListExports', '{"MaxResults": 0}');
SELECT hroe.dynamodb('ListExports', '{"MaxResults": 26}');
-- a recorded export, listed by page (the worker is not needed to list it)
INSERT INTO hroe.exports (export_arn, table_name, table_arn, requested_by, request, export_type, export_format, s3_bucket)
SELECT :'arn' || '/export/0000000000000' || i || '-0000000' || i, 'xfer_t', :'arn',
	   (SELECT oid FROM pg_roles WHERE rolname = current_user), '{}', 'FULL_EXPORT', 'DYNAMODB_JSON', 'bucket1'
FROM generate_series(1, 3) i;
SELECT hroe.list_exports(p_max_results => 2);
-- a worker starts only for the job its caller recorded in the same transaction
SELECT hroe.transfer_start('import', 0);
SELECT hroe.list_exports(p_max_results => 2, p_next_token => hroe.list_exports(p_max_results => 2) ->> 'NextToken');
SELECT (hroe.describe_export(:'arn' || '/export/00000000000001-00000001') -> 'ExportDescription') - 'StartTime'::text - 'ExportTime'::text - 'TableId'::text;
-- another role sees none of them
SET ROLE xfer_nobody;
SELECT hroe.list_exports();
SELECT hroe.dynamodb('DescribeExport', jsonb_build_object('ExportArn', :'arn' || '/export/00000000000001-00000001'));
-- and cannot record one in another's name, or as completed
INSERT INTO hroe.exports (export_arn, table_name, table_arn, requested_by, request, export_type, export_format, s3_bucket)
VALUES ('x', 'xfer_t', 'x', 10, '{}', 'FULL_EXPORT', 'ION', 'bucket1');
INSERT INTO hroe.exports (export_arn, table_name, table_arn, requested_by, request, export_type, export_format, s3_bucket, export_status)
VALUES ('x', 'xfer_t', 'x', (SELECT oid FROM pg_roles WHERE rolname = current_user), '{}', 'FULL_EXPORT', 'ION', 'bucket1', 'COMPLETED');
UPDATE hroe.exports SET export_status = 'FAILED';
RESET ROLE;

-- ImportTable: members, enums, CSV options
SELECT hroe.dynamodb('ImportTable', '{}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}, "InputFormat": "ION"}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {}, "InputFormat": "ION", "TableCreationParameters": {"TableName": "xfer_i"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}, "InputFormat": "XML", "TableCreationParameters": {"TableName": "xfer_i"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}, "InputFormat": "ION", "InputCompressionType": "BZIP2", "TableCreationParameters": {"TableName": "xfer_i"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}, "InputFormat": "ION", "InputFormatOptions": {"Csv": {"Delimiter": ";"}}, "TableCreationParameters": {"TableName": "xfer_i"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}, "InputFormat": "CSV", "InputFormatOptions": {"Csv": {"Delimiter": "ab"}}, "TableCreationParameters": {"TableName": "xfer_i"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1"}, "InputFormat": "CSV", "TableCreationParameters": {"TableName": "xfer_i"}}');
SELECT hroe.dynamodb('ImportTable', '{"S3BucketSource": {"S3Bucket": "bucket1", "S3KeyPrefix": "../x"}, "InputFormat": "CSV", "TableCreationParameters": {"TableName": "xfer_i"}}');
-- nothing created by a refused import
SELECT count(*) FROM hroe.tables WHERE table_name = 'xfer_i';

-- DescribeImport, ListImports
SELECT hroe.dynamodb('DescribeImport', '{}');
SELECT hroe.dynamodb('DescribeImport', '{"ImportArn": "arn:aws:dynamodb:us-east-1:123456789012:table/x/import/01234567890123-abcdef12"}');
SELECT hroe.dynamodb('ListImports', '{}');
SELECT hroe.dynamodb('ListImports', '{"PageSize": 26}');

-- the exceptions' codes
SELECT * FROM hroe.dynamodb_errors() WHERE sqlstate BETWEEN 'HR020' AND 'HR029' ORDER BY sqlstate;

DELETE FROM hroe.exports;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "xfer_t"}') #>> '{TableDescription, TableStatus}';
DROP OWNED BY xfer_nobody;
DROP ROLE xfer_nobody;
