DROP TABLE item_holds;
