DROP TABLE items;
DROP TABLE folders;
