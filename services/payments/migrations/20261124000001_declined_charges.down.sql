DROP TABLE declined_charges;
