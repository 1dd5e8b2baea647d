DROP TABLE custody_tips;
