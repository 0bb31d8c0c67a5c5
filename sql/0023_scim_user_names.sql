-- What an identity provider calls a person, kept as it says it (issue 37.4): a SCIM userName need not be an
-- email (Entra ID's UserName123, an employee number, a UPN without a mailbox), and the emails it sends are
-- served back as sent. The person's email (users.email) is their primary or work entry in `emails`, else
-- the userName when it is one.
ALTER TABLE scim_users ADD COLUMN user_name TEXT;     -- NULL: the userName is the user's email
ALTER TABLE scim_users ADD COLUMN emails TEXT;        -- JSON array as sent; NULL: the email alone (work, primary)
ALTER TABLE scim_users ADD COLUMN display_name TEXT;  -- as sent; NULL: none sent (the full name is made from the name)
-- RFC 7643: userName is unique, compared ignoring case.
CREATE UNIQUE INDEX scim_users_by_user_name ON scim_users (user_name COLLATE NOCASE);
