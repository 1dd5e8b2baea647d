DROP TABLE storage_usage;
