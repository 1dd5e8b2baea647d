DROP TABLE refresh_tokens;
DROP TABLE email_verifications;
DROP TABLE confirmation_codes;
DROP TABLE users;
