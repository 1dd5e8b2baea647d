DROP TABLE account_directory;
