DROP TABLE wallets;
DROP TABLE customers;
