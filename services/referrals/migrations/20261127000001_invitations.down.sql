DROP TABLE referrals;
DROP TABLE invitations;
DROP TABLE referral_directory;
