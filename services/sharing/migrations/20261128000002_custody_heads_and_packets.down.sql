DROP TABLE packet_downloads;
DROP TABLE custody_heads;
