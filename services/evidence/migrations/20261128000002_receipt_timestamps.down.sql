DROP INDEX items_receipt_unstamped;
ALTER TABLE items
    DROP CONSTRAINT items_receipt_timestamp_whole,
    DROP COLUMN receipt_timestamped_at,
    DROP COLUMN receipt_timestamp;
