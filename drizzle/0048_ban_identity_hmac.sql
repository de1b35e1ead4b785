-- Bans of erased accounts keep hashes of the identity (subject, e-mail) to recognise it again. They
-- were SHA-256 without a key: anyone holding the bans table could hash known e-mails and find them.
-- They become HMAC-SHA-256 under a server key that is not in the database (users/bans-identity.ts).
-- The key is not known here: the rows written so far are marked version 1, and the users module
-- re-keys them when the app starts (the keyed hash is an HMAC of the old digest, so no identity is
-- needed and recognition keeps working).
ALTER TABLE "user_bans" ADD COLUMN "identity_hash_version" smallint;--> statement-breakpoint
UPDATE "user_bans" SET "identity_hash_version" = 1 WHERE "subject_hash" IS NOT NULL OR "email_hash" IS NOT NULL;
