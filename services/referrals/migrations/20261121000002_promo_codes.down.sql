DROP TABLE promo_redemptions;
DROP TABLE promo_codes;
