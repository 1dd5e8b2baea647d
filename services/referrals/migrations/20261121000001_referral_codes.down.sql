DROP TABLE referral_codes;
